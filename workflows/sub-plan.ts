/**
 * A sub-plan node in the plan executor (docs/execution.md#sub-plans): runs its pinned plan as a child
 * planExecutorWorkflow, under the calling run's trust, and returns the child's result condensed.
 */
import { executeChild, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { PlanNode } from '../src/domain/records';
import { resolveTemplates, type RefScope } from '../src/domain/refs';
import { SUB_PLAN_ERROR_TYPES, subPlanOutput } from '../src/domain/sub-plan';
import type { PlanSnapshot } from '../src/domain/plan-snapshot';
import { PLAN_ID_ATTRIBUTE, PLAN_INTENT_ATTRIBUTE, type PlanRunInput, type RunStatus } from '../src/domain/run-state';
import type { CompositeResult } from './map-node';
import { describeChildFailure } from './node-failure';

export interface SubPlanContext {
  node: PlanNode;
  pin: PlanSnapshot;
  scope: RefScope;
  nodeIds: readonly string[];
  parent: PlanRunInput;
  onStarted: (child: { workflow_id: string; plan_record_id: string; plan_revision: number }) => void;
}

/** Workflow id of a sub-plan node's child run: the caller's id, then the node's. */
export const subPlanWorkflowId = (parentId: string, nodeId: string) => `${parentId}/${nodeId}`;

export async function runSubPlanNode(ctx: SubPlanContext): Promise<CompositeResult> {
  const { node, pin, parent } = ctx;
  const workflowId = subPlanWorkflowId(workflowInfo().workflowId, node.id);
  const inputs = (resolveTemplates(node.params.inputs ?? {}, ctx.scope, ctx.nodeIds) ?? {}) as Record<string, unknown>;
  const child: PlanRunInput = {
    plan: pin,
    inputs,
    trust: parent.trust,
    task_descriptor: parent.task_descriptor,
    ancestors: [...(parent.ancestors ?? []), parent.plan.record_id],
    // The parent's starter chose the executor version; runs started without one pass none.
    ...(parent.executor_version !== undefined ? { executor_version: parent.executor_version } : {}),
  };
  ctx.onStarted({ workflow_id: workflowId, plan_record_id: pin.record_id, plan_revision: pin.revision });
  try {
    const result = await executeChild<(input: PlanRunInput) => Promise<RunStatus>>('planExecutorWorkflow', {
      workflowId,
      args: [child],
      memo: { plan_id: pin.payload.plan_id, plan_revision: pin.revision, parent_workflow_id: workflowInfo().workflowId, parent_node: node.id },
      staticSummary: `plan · ${node.id}: ${pin.payload.intent}`,
      // As startPlanRun sets them: the API shows the child run to whoever may run its plan.
      typedSearchAttributes: [
        { key: PLAN_ID_ATTRIBUTE, value: pin.record_id },
        { key: PLAN_INTENT_ATTRIBUTE, value: pin.payload.intent },
      ],
    });
    return { output: subPlanOutput(workflowId, result), attempts: 1 };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = describeChildFailure(err);
    return {
      attempts: 1,
      error: { type: SUB_PLAN_ERROR_TYPES.failed, message: `sub-plan ${pin.record_id} (revision ${pin.revision}) failed: ${cause.type}: ${cause.message}` },
    };
  }
}
