/**
 * Sub-plans (docs/plan-schema.md#sub-plans): a node `op: "plan"` runs another stored plan, named by
 * its record id in `params.plan_id`, as a child run. Its target is pinned (record id and revision)
 * when the calling run starts, under the caller's trust, and plans calling plans in a cycle are
 * refused. Pure: stored records come through an injected loader.
 */
import type { MemoryRecord, PlanGraphPayload, PlanNode, TrustContext } from './records';
import { planSnapshot, type PlanSnapshot } from './plan-snapshot';
import { runnableBy, visibility } from './trust';

/** The op name of a sub-plan node; no op of a worker may take it. */
export const SUB_PLAN_OP = 'plan';

/** Stable failure types of sub-plan nodes and of runs refused at start. */
export const SUB_PLAN_ERROR_TYPES = {
  cycle: 'sub_plan_cycle',
  notFound: 'sub_plan_not_found',
  forbidden: 'sub_plan_forbidden',
  failed: 'sub_plan_failed',
} as const;

export const isSubPlanNode = (node: Pick<PlanNode, 'op'>) => node.op === SUB_PLAN_OP;

/** The record id a sub-plan node calls: a literal string (it is pinned before anything runs). */
export function subPlanTarget(node: Pick<PlanNode, 'params'>): string | undefined {
  const id = node.params.plan_id;
  return typeof id === 'string' && id.trim() !== '' && !id.includes('{{') ? id : undefined;
}

/** What is wrong with a sub-plan node's shape, and the field it is in (under the node), or undefined. */
export function subPlanNodeProblem(node: Pick<PlanNode, 'id' | 'params' | 'for_each'>): { field: string; message: string } | undefined {
  if (subPlanTarget(node) === undefined) return { field: 'params.plan_id', message: `node "${node.id}": params.plan_id must be the record id of a stored plan, as a literal string` };
  const inputs = node.params.inputs;
  if (inputs !== undefined && (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs)) && typeof inputs !== 'string') {
    return { field: 'params.inputs', message: `node "${node.id}": params.inputs must be an object (or one {{reference}} to an object)` };
  }
  if (node.for_each !== undefined) return { field: 'for_each', message: `node "${node.id}": a sub-plan node cannot have for_each` };
  return undefined;
}

/** Record ids the plan's sub-plan nodes call, by node id. */
export function subPlanTargets(plan: Pick<PlanGraphPayload, 'nodes'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const node of plan.nodes) {
    const target = isSubPlanNode(node) ? subPlanTarget(node) : undefined;
    if (target !== undefined) out.set(node.id, target);
  }
  return out;
}

export type SubPlanWalk =
  | { ok: true; pins: Record<string, PlanSnapshot> }
  | { ok: false; type: (typeof SUB_PLAN_ERROR_TYPES)[keyof typeof SUB_PLAN_ERROR_TYPES]; message: string };

/**
 * Walks every plan reachable through sub-plan nodes from `root`: refuses a cycle (including
 * one back to an ancestor run), a plan that does not exist or the caller cannot see, and one the
 * caller may not run. With `trust` undefined (a trusted caller, or a write-time check) only
 * existence and cycles are checked. Returns the pins of the root's own sub-plan nodes.
 */
export async function walkSubPlans(
  root: { record_id: string; payload: Pick<PlanGraphPayload, 'nodes'> },
  load: (id: string) => Promise<MemoryRecord | undefined>,
  options: { trust?: TrustContext; ancestors?: readonly string[] } = {},
): Promise<SubPlanWalk> {
  const cache = new Map<string, MemoryRecord | undefined>();
  const loadOnce = async (id: string) => {
    if (!cache.has(id)) cache.set(id, await load(id));
    return cache.get(id);
  };
  const done = new Set<string>();
  const pins: Record<string, PlanSnapshot> = {};
  // Depth-first with an explicit path: a target already on the path closes a cycle.
  const visit = async (plan: Pick<PlanGraphPayload, 'nodes'>, path: string[]): Promise<SubPlanWalk | undefined> => {
    for (const [nodeId, target] of [...subPlanTargets(plan)].sort(([a], [b]) => a.localeCompare(b))) {
      if (path.includes(target)) {
        const cycle = [...path.slice(path.indexOf(target)), target];
        return { ok: false, type: SUB_PLAN_ERROR_TYPES.cycle, message: `plans call each other in a cycle: ${cycle.join(' -> ')}` };
      }
      const record = await loadOnce(target);
      const seen = record && (!options.trust || visibility(record, options.trust) !== 'invisible');
      if (!record || !seen || record.payload.kind !== 'plan_graph' || record.status === 'retracted') {
        return { ok: false, type: SUB_PLAN_ERROR_TYPES.notFound, message: `node "${nodeId}" calls plan ${target}: no runnable plan with that id is visible to the caller` };
      }
      if (options.trust && (visibility(record, options.trust) !== 'visible' || !runnableBy(record.payload, options.trust))) {
        return { ok: false, type: SUB_PLAN_ERROR_TYPES.forbidden, message: `node "${nodeId}" calls plan ${target}, which the caller may not run` };
      }
      if (path.length === 1 + (options.ancestors?.length ?? 0)) pins[nodeId] = planSnapshot(record, record.payload);
      if (done.has(target)) continue;
      const refused = await visit(record.payload, [...path, target]);
      if (refused) return refused;
      done.add(target);
    }
    return undefined;
  };
  const refused = await visit(root.payload, [...(options.ancestors ?? []), root.record_id]);
  return refused ?? { ok: true, pins };
}

/** A sub-plan node's output: the child run, the plan it ran, and each of its nodes' outputs. */
export interface SubPlanOutput {
  workflow_id: string;
  plan_record_id: string;
  plan_revision: number;
  state: string;
  outputs: Record<string, unknown>;
}

/** Condenses a child run's result into its node's output (`{{nodes.sub.output.outputs.<node>.<path>}}`). */
export function subPlanOutput(
  workflowId: string,
  result: { plan_record_id: string; plan_revision: number; state: string; nodes: ReadonlyArray<{ id: string; output?: unknown }> },
): SubPlanOutput {
  const outputs: Record<string, unknown> = {};
  for (const node of [...result.nodes].sort((a, b) => a.id.localeCompare(b.id))) if (node.output !== undefined) outputs[node.id] = node.output;
  return { workflow_id: workflowId, plan_record_id: result.plan_record_id, plan_revision: result.plan_revision, state: result.state, outputs };
}
