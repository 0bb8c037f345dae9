/**
 * A plan's graph as adjacency lists, in a deterministic topological order (Kahn, smallest id
 * first). Pure and free of zod: the executor workflow indexes every run's plan with it without
 * building the wire schemas (graph.ts validates plans and re-exports this).
 */
import type { PlanEdge } from './records';
import { MinHeap } from './min-heap';

/** Predecessors of each node, split by edge kind, with ids in sorted order. */
export interface GraphIndex {
  nodeIds: string[];
  preds: Map<string, { data: string[]; control: string[] }>;
  succs: Map<string, string[]>;
}

/** Builds sorted adjacency lists; edges naming unknown nodes are ignored. */
export function indexGraph(nodes: ReadonlyArray<{ id: string }>, edges: readonly PlanEdge[]): GraphIndex {
  const nodeIds = [...new Set(nodes.map((n) => n.id))].sort();
  const preds = new Map(nodeIds.map((id) => [id, { data: [] as string[], control: [] as string[] }]));
  const succs = new Map(nodeIds.map((id) => [id, [] as string[]]));
  // Sets keep de-duplication linear: a fan of 50,000 has one node with 50,000 edges.
  const seenPred = new Set<string>();
  const seenSucc = new Set<string>();
  for (const e of edges) {
    const p = preds.get(e.to);
    const s = succs.get(e.from);
    if (!p || !s || e.from === e.to) continue;
    const predKey = `${e.kind}\u0000${e.to}\u0000${e.from}`;
    if (!seenPred.has(predKey)) {
      seenPred.add(predKey);
      p[e.kind].push(e.from);
    }
    const succKey = `${e.from}\u0000${e.to}`;
    if (!seenSucc.has(succKey)) {
      seenSucc.add(succKey);
      s.push(e.to);
    }
  }
  for (const p of preds.values()) {
    p.data.sort();
    p.control.sort();
  }
  for (const s of succs.values()) s.sort();
  return { nodeIds, preds, succs };
}

/** Node ids in a deterministic topological order (Kahn, smallest id first); null on a cycle. */
export function topologicalOrder(index: GraphIndex): string[] | null {
  const indegree = new Map(index.nodeIds.map((id) => [id, 0]));
  for (const id of index.nodeIds) {
    const p = index.preds.get(id)!;
    indegree.set(id, new Set([...p.data, ...p.control]).size);
  }
  // A min-heap of ready ids: the same order as sorting the ready list each step, in n log n.
  const ready = new MinHeap();
  for (const id of index.nodeIds) if (indegree.get(id) === 0) ready.push(id);
  const order: string[] = [];
  while (ready.size > 0) {
    const id = ready.pop();
    order.push(id);
    for (const next of index.succs.get(id) ?? []) {
      const d = indegree.get(next)! - 1;
      indegree.set(next, d);
      if (d === 0) ready.push(next);
    }
  }
  return order.length === index.nodeIds.length ? order : null;
}

/**
 * Whether no two nodes can ever run at once: each node of the topological `order` depends on the
 * one before it (a chain, whatever its edges' kinds), so the order is the only one.
 */
export function isSequential(index: GraphIndex, order: readonly string[]): boolean {
  for (let i = 1; i < order.length; i++) {
    const preds = index.preds.get(order[i]!)!;
    const before = order[i - 1]!;
    if (!preds.data.includes(before) && !preds.control.includes(before)) return false;
  }
  return true;
}

/** Finds the node ids of one cycle (in edge order), or null if the graph is acyclic. */
export function findCycle(index: GraphIndex): string[] | null {
  const WHITE = 0, GREY = 1, BLACK = 2;
  const color = new Map(index.nodeIds.map((id) => [id, WHITE]));
  const stack: string[] = [];
  // Iterative DFS so a 10,000-node chain does not overflow the call stack.
  for (const root of index.nodeIds) {
    if (color.get(root) !== WHITE) continue;
    const frames: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    color.set(root, GREY);
    stack.push(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const succ = index.succs.get(frame.id) ?? [];
      if (frame.next < succ.length) {
        const to = succ[frame.next++]!;
        if (color.get(to) === GREY) return stack.slice(stack.indexOf(to));
        if (color.get(to) === WHITE) {
          color.set(to, GREY);
          stack.push(to);
          frames.push({ id: to, next: 0 });
        }
      } else {
        color.set(frame.id, BLACK);
        stack.pop();
        frames.pop();
      }
    }
  }
  return null;
}
