/**
 * The state of one plan run: node states, readiness and skip rules. Pure and deterministic;
 * the workflow drives it and turns its decisions into activities.
 */
import { guardAllows } from '../src/domain/guards';
import { indexGraph, isSequential, topologicalOrder, type GraphIndex } from '../src/domain/graph-index';
import type { NodeExecution } from '../src/domain/node-execution';
import type { PlanGraphPayload, PlanNode } from '../src/domain/records';
import type { RefScope, RunRef } from '../src/domain/refs';
import { TERMINAL_NODE_STATES, type NodeError, type NodeState, type NodeStatus } from '../src/domain/run-state';

export type Decision = { kind: 'start'; node: PlanNode } | { kind: 'skip'; node: PlanNode; reason: string };

export class PlanRun {
  readonly index: GraphIndex;
  readonly nodes = new Map<string, PlanNode>();
  readonly status = new Map<string, NodeStatus>();
  /** No two nodes can ever run at once (a chain). */
  readonly sequential: boolean;
  /** Position of each node in the topological order: ready nodes start in this order. */
  private readonly rank = new Map<string, number>();
  private readonly waitingOn = new Map<string, number>();
  private ready: string[] = [];
  private terminalCount = 0;
  running = 0;

  constructor(
    readonly plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>,
    private readonly inputs: Record<string, unknown>,
    private readonly runRef: RunRef,
  ) {
    this.index = indexGraph(plan.nodes, plan.edges);
    const order = topologicalOrder(this.index);
    this.sequential = order !== null && isSequential(this.index, order);
    (order ?? this.index.nodeIds).forEach((id, i) => this.rank.set(id, i));
    for (const node of [...plan.nodes].sort((a, b) => this.rankOf(a.id) - this.rankOf(b.id))) {
      this.nodes.set(node.id, node);
      this.status.set(node.id, { id: node.id, op: node.op, state: 'pending', attempts: 0 });
      const preds = this.predecessors(node.id);
      this.waitingOn.set(node.id, preds.length);
      if (preds.length === 0) this.ready.push(node.id);
    }
  }

  private rankOf(id: string): number {
    return this.rank.get(id) ?? 0;
  }

  private predecessors(id: string): string[] {
    const p = this.index.preds.get(id);
    return p ? [...new Set([...p.data, ...p.control])] : [];
  }

  get done(): boolean {
    return this.terminalCount === this.status.size;
  }

  /** The refs a node's params and guard can see: run inputs, terminal predecessors and the run's ids. */
  scopeFor(id: string): RefScope {
    const nodes: RefScope['nodes'] = {};
    for (const pred of this.predecessors(id)) {
      const s = this.status.get(pred);
      if (s) (nodes as Record<string, { state: string; output?: unknown }>)[pred] = { state: s.state, output: s.output };
    }
    return { inputs: this.inputs, nodes, run: this.runRef };
  }

  /** Outputs of a node's data predecessors, keyed by node id in sorted order. */
  dataInputs(id: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const pred of this.index.preds.get(id)?.data ?? []) out[pred] = this.status.get(pred)?.output ?? null;
    return out;
  }

  /**
   * Takes the next ready node in topological order and decides it: skip (a data predecessor
   * did not succeed, a control predecessor failed without continue_on_error or was cancelled,
   * or the guard is false) or start.
   * Returns undefined when nothing is ready.
   */
  nextDecision(): Decision | undefined {
    const id = this.ready.shift();
    if (id === undefined) return undefined;
    const node = this.nodes.get(id)!;
    const preds = this.index.preds.get(id)!;
    for (const pred of preds.data) {
      const state = this.status.get(pred)!.state;
      if (state !== 'succeeded') return { kind: 'skip', node, reason: `data predecessor "${pred}" ${state}` };
    }
    for (const pred of preds.control) {
      const state = this.status.get(pred)!.state;
      // A skipped control predecessor still counts as done, and so does a failure its node
      // tolerates (continue_on_error); any other failure or a cancellation blocks.
      const tolerated = state === 'failed' && this.nodes.get(pred)?.policy?.continue_on_error === true;
      if ((state === 'failed' && !tolerated) || state === 'cancelled') {
        return { kind: 'skip', node, reason: `control predecessor "${pred}" ${state}` };
      }
    }
    if (!guardAllows(node.guards, this.scopeFor(id), this.index.nodeIds)) return { kind: 'skip', node, reason: 'guard is false' };
    return { kind: 'start', node };
  }

  /** Puts a node back at the front of the ready queue (no free slot to start it yet). */
  deferStart(id: string): void {
    this.ready.unshift(id);
  }

  hasReady(): boolean {
    return this.ready.length > 0;
  }

  markRunning(id: string, at: string, execution: NodeExecution | undefined): void {
    const s = this.status.get(id)!;
    s.state = 'running';
    s.started_at = at;
    if (execution) s.execution = execution;
    this.running += 1;
  }

  /** An approval node starts waiting: it holds a slot like a running node until decided. */
  markWaiting(id: string, at: string, prompt: string): void {
    this.markRunning(id, at, 'local');
    const s = this.status.get(id)!;
    s.state = 'waiting';
    s.prompt = prompt;
    delete s.execution; // an approval runs nowhere: the executor itself waits
  }

  /** A node of a resumed run that is not run again: succeeded with the old run's output. */
  reuse(id: string, at: string, output: unknown, attempts: number, from: string): void {
    this.status.get(id)!.reused_from = from;
    this.finish(id, 'succeeded', at, { output, attempts });
  }

  /** Records a terminal state and releases successors whose predecessors are now all terminal. */
  finish(id: string, state: NodeState, at: string, extra: { output?: unknown; attempts?: number; error?: NodeError; reason?: string } = {}): void {
    const s = this.status.get(id)!;
    if (TERMINAL_NODE_STATES.has(s.state)) return;
    if (s.state === 'running' || s.state === 'waiting') this.running -= 1;
    s.state = state;
    s.finished_at = at;
    if (extra.output !== undefined) s.output = extra.output;
    if (extra.attempts !== undefined) s.attempts = extra.attempts;
    if (extra.error) s.error = extra.error;
    if (extra.reason) s.reason = extra.reason;
    this.terminalCount += 1;
    for (const next of this.index.succs.get(id) ?? []) {
      const left = (this.waitingOn.get(next) ?? 0) - 1;
      this.waitingOn.set(next, left);
      if (left === 0) this.insertReady(next);
    }
  }

  private insertReady(id: string): void {
    // Binary insertion keeps the queue in topological order without re-sorting.
    const r = this.rankOf(id);
    let lo = 0;
    let hi = this.ready.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rankOf(this.ready[mid]!) < r) lo = mid + 1;
      else hi = mid;
    }
    this.ready.splice(lo, 0, id);
  }

  /** Marks every node that never started as cancelled (fail-fast, timeout, or run cancellation). */
  cancelPending(at: string, reason: string): void {
    for (const s of this.status.values()) {
      if (s.state === 'pending') this.finish(s.id, 'cancelled', at, { reason });
    }
    this.ready = [];
  }

  snapshot(): NodeStatus[] {
    return [...this.status.values()].map((s) => ({ ...s }));
  }
}
