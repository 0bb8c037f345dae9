/**
 * Which nodes a resumed run reuses (docs/execution.md#resume): a node is run again when it did
 * not succeed in the old run, when its output was left out of the old run's status, or when
 * any of its ancestors is run again; every other node succeeded, and so did all its ancestors,
 * so its output is reused as it was.
 */
import { indexGraph, topologicalOrder } from '../domain/graph';
import type { PlanGraphPayload } from '../domain/records';
import type { NodeStatus, ResumeFrom } from '../domain/run-state';

export interface ResumeSplit {
  reused: ResumeFrom['reused'];
  /** The reused node ids and the rerun ones, each in the order the nodes run (topological). */
  reusedIds: string[];
  rerun: string[];
}

/** Splits a plan's nodes into those reused from the old run's statuses and those run again. */
export function splitForResume(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>, old: readonly NodeStatus[]): ResumeSplit {
  const index = indexGraph(plan.nodes, plan.edges);
  const byId = new Map(old.map((n) => [n.id, n]));
  // A succeeded node whose output the old run's status left out (too large to report) runs again too.
  const rerun = new Set(index.nodeIds.filter((id) => byId.get(id)?.state !== 'succeeded' || byId.get(id)?.output_omitted !== undefined));
  // Everything downstream of a rerun node depends on it and runs again too.
  const frontier = [...rerun];
  while (frontier.length > 0) {
    for (const next of index.succs.get(frontier.pop()!) ?? []) {
      if (!rerun.has(next)) {
        rerun.add(next);
        frontier.push(next);
      }
    }
  }
  const order = topologicalOrder(index) ?? index.nodeIds;
  const reusedIds = order.filter((id) => !rerun.has(id));
  // fromEntries defines own properties, so a node called "__proto__" is kept like any other.
  const reused: ResumeFrom['reused'] = Object.fromEntries(reusedIds.map((id) => [id, { output: byId.get(id)!.output ?? null, attempts: byId.get(id)!.attempts }]));
  return { reused, reusedIds, rerun: order.filter((id) => rerun.has(id)) };
}
