/**
 * One call of a node's op (or of a map item's): an activity or a local activity, scheduled
 * directly (what proxyActivities would do, without a proxy object per call). With a `budget`
 * (TASK_BUDGET_VERSION), a call that would overfill the workflow task's completion waits for the
 * next task (task-budget.ts).
 */
import { ApplicationFailure, scheduleActivity, scheduleLocalActivity } from '@temporalio/workflow';
import type { PlanNode } from '../src/domain/records';
import { unresolvedOutputRefs, type RefScope } from '../src/domain/refs';
import { jsonBytes, NODE_INPUT_LIMIT_BYTES } from '../src/domain/payload-size';
import { NODE_ERROR_TYPES, type NodeActivityInput, type NodeActivityResult } from '../src/domain/run-state';
import { activityOptions, localActivityOptions } from './node-options';
import type { TaskBudget } from './task-budget';

/** The call of `node`'s op with `input`, as a function that schedules it. */
export function nodeCall(node: PlanNode, input: NodeActivityInput, local: boolean, budget: TaskBudget | undefined): () => Promise<NodeActivityResult> {
  return (local ? localSchedule : activitySchedule)(node, input, budget);
}

function activitySchedule(node: PlanNode, input: NodeActivityInput, budget: TaskBudget | undefined): () => Promise<NodeActivityResult> {
  const schedule = () => scheduleActivity<NodeActivityResult>(node.op, [input], activityOptions(node));
  if (!budget) return schedule;
  return () => {
    const bytes = jsonBytes(input);
    if (bytes > NODE_INPUT_LIMIT_BYTES) return inputTooLarge(node, bytes);
    return budget.admitActivity(bytes)?.then(schedule) ?? schedule();
  };
}

function localSchedule(node: PlanNode, input: NodeActivityInput, budget: TaskBudget | undefined): () => Promise<NodeActivityResult> {
  const schedule = () => scheduleLocalActivity<NodeActivityResult>(node.op, [input], localActivityOptions(node));
  if (!budget) return schedule;
  const counted = (guess: number) =>
    schedule().then(
      (result) => {
        budget.succeeded(node.op, guess, jsonBytes(result.output));
        return result;
      },
      (err: unknown) => {
        budget.failed(guess, err);
        throw err;
      },
    );
  return () => {
    const admitted = budget.admitLocal(node.op, input);
    return typeof admitted === 'number' ? counted(admitted) : admitted.then(counted);
  };
}

/**
 * An activity input over Temporal's payload limit makes the server terminate the whole run, so the
 * node fails instead, before anything is scheduled (with the task budget, TASK_BUDGET_VERSION). A
 * local activity's input never leaves the worker.
 */
function inputTooLarge(node: PlanNode, bytes: number): Promise<never> {
  const message = `node "${node.id}" (${node.op}): its resolved params and data inputs are ${bytes} bytes; an activity's input may be at most ${NODE_INPUT_LIMIT_BYTES}`;
  return Promise.reject(ApplicationFailure.create({ type: NODE_ERROR_TYPES.inputTooLarge, message, nonRetryable: true, details: [{ attempt: 0 }] }));
}

/**
 * The failure of a node whose params read upstream outputs that do not resolve (refs.ts), or
 * undefined when they all do. Not retried: the outputs it reads are final.
 */
export function unresolvedRefsFailure(node: PlanNode, scope: RefScope, nodeIds: readonly string[]): ApplicationFailure | undefined {
  const missing = unresolvedOutputRefs(node.params, scope, nodeIds);
  if (missing.length === 0) return undefined;
  const message = `node "${node.id}" (${node.op}): ${missing.join('; ')}`;
  return ApplicationFailure.create({ type: NODE_ERROR_TYPES.unresolvedReference, message, nonRetryable: true, details: [{ attempt: 0 }] });
}
