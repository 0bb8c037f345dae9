/**
 * Nodes the executor runs itself rather than as one activity: map nodes (for_each) and sub-plan
 * nodes (op "plan"). Each feature is behind its own patch, asked only by a plan that uses it, so
 * histories of plans without such nodes replay unchanged.
 */
import { patched, proxyLocalActivities } from '@temporalio/workflow';
import type { createSubPlanActivities } from '../activities/sub-plan-activities';
import type { PlanGraphPayload, PlanNode } from '../src/domain/records';
import type { RefScope } from '../src/domain/refs';
import type { NodeStatus, PlanRunInput } from '../src/domain/run-state';
import { isSubPlanNode, SUB_PLAN_ERROR_TYPES } from '../src/domain/sub-plan';
import type { PlanSnapshot, RunnablePlan } from '../src/domain/plan-snapshot';
import type { ItemSlots } from './item-slots';
import type { TaskBudget } from './task-budget';
import { unresolvedRefsFailure } from './node-calls';
import { runMapNode, type CompositeResult } from './map-node';
import { runSubPlanNode } from './sub-plan';

export const COMPOSITE_PATCHES = {
  /** Nodes with for_each run once per item. */
  mapNodes: 'executor-map-nodes',
  /** Nodes with op "plan" run a pinned plan as a child run; the pins are taken before beginRun. */
  subPlans: 'executor-sub-plans',
} as const;

const { pinSubPlans } = proxyLocalActivities<ReturnType<typeof createSubPlanActivities>>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: Object.values(SUB_PLAN_ERROR_TYPES) },
});

export interface Composites {
  maps: boolean;
  pins: Record<string, PlanSnapshot> | undefined;
}

/** A plan without map or sub-plan nodes asks no patch and pins nothing. */
export const NO_COMPOSITES: Composites = { maps: false, pins: undefined };

export const hasComposites = (payload: Pick<PlanGraphPayload, 'nodes'>) => payload.nodes.some((n) => n.for_each !== undefined || isSubPlanNode(n));

/**
 * Turns on what the plan uses and pins its sub-plans (refusing cycles and plans the caller may
 * not run: the run then fails before it opens its run row). A `versioned` run (EXECUTOR_VERSION)
 * takes both features without asking their patches.
 */
export async function prepareComposites(input: PlanRunInput, payload: RunnablePlan, versioned: boolean): Promise<Composites> {
  const maps = payload.nodes.some((n) => n.for_each !== undefined) && (versioned || patched(COMPOSITE_PATCHES.mapNodes));
  const subPlanNodes = payload.nodes.filter(isSubPlanNode);
  const subPlans = subPlanNodes.length > 0 && (versioned || patched(COMPOSITE_PATCHES.subPlans));
  const pins = subPlans
    ? await pinSubPlans({ record_id: input.plan.record_id, nodes: subPlanNodes, trust: input.trust, ancestors: input.ancestors })
    : undefined;
  return { maps, pins };
}

export interface CompositeRunContext {
  input: PlanRunInput;
  scope: RefScope;
  nodeIds: readonly string[];
  local: boolean;
  maxParallel: number;
  failFast: boolean;
  /** Updates the node's status (map progress, the child run). */
  update: (fields: Partial<NodeStatus>) => void;
  /** The run's budget of inline map items in flight, shared by all its maps (version 4 runs). */
  itemSlots?: ItemSlots;
  /** The run's workflow-task budget, which map items count against too (version 6 runs). */
  taskBudget?: TaskBudget;
  /** A node whose params read an upstream output that does not resolve fails (version 8 runs). */
  strictRefs?: boolean;
}

/** How to run a node the executor runs itself, or undefined for an ordinary node. */
export function compositeRunner(node: PlanNode, composites: Composites, ctx: () => CompositeRunContext): (() => Promise<CompositeResult>) | undefined {
  const pin = composites.pins?.[node.id];
  const map = composites.maps && node.for_each !== undefined;
  if (!map && !(pin && isSubPlanNode(node))) return undefined;
  return () => {
    const c = ctx();
    const unresolved = c.strictRefs ? unresolvedRefsFailure(node, c.scope, c.nodeIds) : undefined;
    if (unresolved) return Promise.resolve({ attempts: 0, error: { type: unresolved.type ?? 'Error', message: unresolved.message } });
    if (map) return runMapNode({ node, ...c, onProgress: (items) => c.update({ items }) });
    return runSubPlanNode({ node, pin: pin!, scope: c.scope, nodeIds: c.nodeIds, parent: c.input, onStarted: (sub_plan) => c.update({ sub_plan }) });
  };
}
