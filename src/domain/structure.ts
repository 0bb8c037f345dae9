/**
 * Structural identity of a plan (docs/consolidation.md#structure-key-dedup dedup): same intent, same multiset of ops and the same
 * edges once node ids are mapped to canonical names. Params are ignored. Its shape is the same without the intent.
 */
import { createHash } from 'node:crypto';
import type { PlanGraphPayload } from './records';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** Refinement rounds are capped so huge plans stay cheap; plans differing only farther apart collide. */
const MAX_ROUNDS = 32;

/**
 * Canonical node names that do not depend on node ids: each node starts labelled by its op and
 * is relabelled from its neighbours' labels (with edge kind and direction) until the partition
 * stops refining (Weisfeiler-Lehman). Isomorphic plans therefore get the same names, whatever
 * their ids or the order of their nodes.
 */
export function canonicalNames(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>): Map<string, string> {
  const around = new Map(plan.nodes.map((n) => [n.id, [] as Array<{ dir: string; other: string }>]));
  for (const e of plan.edges) {
    around.get(e.to)?.push({ dir: `<${e.kind}`, other: e.from });
    around.get(e.from)?.push({ dir: `>${e.kind}`, other: e.to });
  }
  let names = new Map(plan.nodes.map((n) => [n.id, n.op]));
  let classes = new Set(names.values()).size;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = new Map<string, string>();
    for (const [id, name] of names) {
      const neighbours = (around.get(id) ?? []).map((a) => `${a.dir}:${names.get(a.other) ?? ''}`).sort();
      next.set(id, hash(JSON.stringify([name, neighbours])));
    }
    const nextClasses = new Set(next.values()).size;
    names = next;
    // Each label embeds the previous one, so an unchanged class count means a stable partition.
    if (nextClasses === classes) break;
    classes = nextClasses;
  }
  return names;
}

/** A plan's sorted ops and canonically named edges. */
function opsAndEdges(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>): { ops: string[]; edges: string[] } {
  const names = canonicalNames(plan);
  const ops = plan.nodes.map((n) => n.op).sort();
  const edges = plan.edges.map((e) => `${names.get(e.from)}>${names.get(e.to)}:${e.kind}`).sort();
  return { ops, edges };
}

/** A stable hash of a plan's structure. */
export function structureKey(plan: Pick<PlanGraphPayload, 'intent' | 'nodes' | 'edges'>): string {
  const { ops, edges } = opsAndEdges(plan);
  return hash(JSON.stringify({ intent: plan.intent, ops, edges }));
}

/**
 * A stable hash of a plan's ops and edges alone, whatever its intent: the plans an episode of
 * an agent that never names its task may join (docs/consolidation.md#one-plan-per-job).
 */
export function shapeKey(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>): string {
  const { ops, edges } = opsAndEdges(plan);
  return hash(JSON.stringify({ ops, edges }));
}
