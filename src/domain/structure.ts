/**
 * Structural identity of a plan (SPEC §2 dedup): same intent, same multiset of ops and the same
 * edges once node ids are mapped to canonical names. Params are ignored.
 */
import { createHash } from 'node:crypto';
import { indexGraph, topologicalOrder } from './graph';
import type { PlanGraphPayload } from './records';

/**
 * Canonical node names: op plus its rank among nodes of the same op in topological order, so
 * two plans that differ only in node ids get the same names.
 */
export function canonicalNames(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>): Map<string, string> {
  const index = indexGraph(plan.nodes, plan.edges);
  const order = topologicalOrder(index) ?? index.nodeIds;
  const opOf = new Map(plan.nodes.map((n) => [n.id, n.op]));
  const seen = new Map<string, number>();
  const names = new Map<string, string>();
  for (const id of order) {
    const op = opOf.get(id) ?? '';
    const n = seen.get(op) ?? 0;
    seen.set(op, n + 1);
    names.set(id, `${op}#${n}`);
  }
  return names;
}

/** A stable hash of a plan's structure. */
export function structureKey(plan: Pick<PlanGraphPayload, 'intent' | 'nodes' | 'edges'>): string {
  const names = canonicalNames(plan);
  const ops = plan.nodes.map((n) => n.op).sort();
  const edges = plan.edges.map((e) => `${names.get(e.from)}>${names.get(e.to)}:${e.kind}`).sort();
  const text = JSON.stringify({ intent: plan.intent, ops, edges });
  return createHash('sha256').update(text).digest('hex');
}
