import { describe, expect, it } from 'vitest';
import { planGraphPayloadSchema, type PlanGraphPayloadInput } from '../../src/domain/records';
import type { NodeState } from '../../src/domain/run-state';
import { PlanRun } from '../../workflows/plan-run';

type Edge = { from: string; to: string; kind: 'data' | 'control' };
const T = '2024-01-01T00:00:00.000Z';
const RUN = { id: '0b6f3c8e-3b0e-4a57-9d7e-2f1c5a9e4d21', workflow_id: 'plan-p-1' };

function makeRun(nodes: PlanGraphPayloadInput['nodes'], edges: Edge[] = [], inputs: Record<string, unknown> = {}) {
  const plan = planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: 'p', intent: 'unit', nodes, edges });
  return new PlanRun(plan, inputs, RUN);
}

/** Takes every decision available now: skips are applied, starts are marked running and returned. */
function drain(run: PlanRun): string[] {
  const started: string[] = [];
  for (let d = run.nextDecision(); d; d = run.nextDecision()) {
    if (d.kind === 'skip') run.finish(d.node.id, 'skipped', T, { reason: d.reason });
    else {
      run.markRunning(d.node.id, T, 'activity');
      started.push(d.node.id);
    }
  }
  return started;
}

const stateOf = (run: PlanRun, id: string) => run.status.get(id)!.state;
const states = (run: PlanRun) => Object.fromEntries([...run.status.values()].map((s) => [s.id, s.state]));

describe('PlanRun readiness', () => {
  it('starts only the roots, in topological (then id) order', () => {
    const run = makeRun([{ id: 'z', op: 'noop' }, { id: 'b', op: 'noop' }, { id: 'a', op: 'noop' }], [{ from: 'z', to: 'a', kind: 'control' }]);
    expect(drain(run)).toEqual(['b', 'z']);
    expect(stateOf(run, 'a')).toBe('pending');
  });

  it('releases a node the moment its own predecessors are terminal, not level by level', () => {
    const run = makeRun(
      ['a1', 'a2', 'a3', 'b1', 'b2'].map((id) => ({ id, op: 'noop' })),
      [
        { from: 'a1', to: 'a2', kind: 'control' },
        { from: 'a2', to: 'a3', kind: 'control' },
        { from: 'b1', to: 'b2', kind: 'control' },
      ],
    );
    expect(drain(run)).toEqual(['a1', 'b1']);
    run.finish('a1', 'succeeded', T);
    expect(drain(run)).toEqual(['a2']);
    run.finish('a2', 'succeeded', T);
    // a3 is two levels deep, yet starts while b1 (level one) is still running.
    expect(drain(run)).toEqual(['a3']);
    expect(stateOf(run, 'b1')).toBe('running');
  });

  it('waits for every predecessor of a join, control and data alike', () => {
    const run = makeRun(
      ['a', 'b', 'c', 'd'].map((id) => ({ id, op: 'noop' })),
      [
        { from: 'a', to: 'b', kind: 'data' },
        { from: 'a', to: 'c', kind: 'control' },
        { from: 'b', to: 'd', kind: 'data' },
        { from: 'c', to: 'd', kind: 'control' },
      ],
    );
    expect(drain(run)).toEqual(['a']);
    run.finish('a', 'succeeded', T, { output: 1 });
    expect(drain(run)).toEqual(['b', 'c']);
    run.finish('c', 'succeeded', T);
    expect(drain(run)).toEqual([]);
    run.finish('b', 'succeeded', T, { output: 2 });
    expect(drain(run)).toEqual(['d']);
    run.finish('d', 'succeeded', T);
    expect(run.done).toBe(true);
    expect(run.running).toBe(0);
  });

  it('puts a deferred node back first, keeping the order', () => {
    const run = makeRun(['a', 'b'].map((id) => ({ id, op: 'noop' })));
    const first = run.nextDecision()!;
    run.deferStart(first.node.id);
    expect(run.nextDecision()!.node.id).toBe('a');
    expect(run.nextDecision()!.node.id).toBe('b');
    expect(run.hasReady()).toBe(false);
  });
});

describe('PlanRun.sequential: whether two nodes could ever run at once', () => {
  const n = (...ids: string[]) => ids.map((id) => ({ id, op: 'noop' }));
  const e = (from: string, to: string, kind: Edge['kind'] = 'control'): Edge => ({ from, to, kind });

  it('is true for one node and for a chain, whatever its edges\' kinds and shortcuts', () => {
    expect(makeRun(n('a')).sequential).toBe(true);
    expect(makeRun(n('c', 'a', 'b'), [e('a', 'b', 'data'), e('b', 'c'), e('a', 'c', 'data')]).sequential).toBe(true);
  });

  it('is false as soon as two nodes are independent', () => {
    expect(makeRun(n('a', 'b')).sequential).toBe(false);
    expect(makeRun(n('a', 'b', 'c', 'd'), [e('a', 'b'), e('a', 'c'), e('b', 'd'), e('c', 'd')]).sequential).toBe(false);
    expect(makeRun(n('a', 'b', 'c'), [e('a', 'c'), e('b', 'c')]).sequential).toBe(false);
  });
});

describe('PlanRun skip propagation', () => {
  function afterPredecessor(kind: 'data' | 'control', predState: NodeState, predPolicy?: Record<string, unknown>) {
    const run = makeRun([{ id: 'p', op: 'noop', policy: predPolicy }, { id: 'q', op: 'noop' }], [{ from: 'p', to: 'q', kind }]);
    drain(run);
    run.finish('p', predState, T);
    const decision = run.nextDecision()!;
    return { kind: decision.kind, reason: decision.kind === 'skip' ? decision.reason : undefined };
  }

  it('skips a node whose data predecessor did not succeed', () => {
    for (const state of ['failed', 'skipped', 'cancelled'] as const) {
      expect(afterPredecessor('data', state)).toEqual({ kind: 'skip', reason: `data predecessor "p" ${state}` });
    }
    expect(afterPredecessor('data', 'succeeded').kind).toBe('start');
  });

  it('counts a skipped control predecessor as done, but not a failed or cancelled one', () => {
    expect(afterPredecessor('control', 'skipped').kind).toBe('start');
    expect(afterPredecessor('control', 'succeeded').kind).toBe('start');
    expect(afterPredecessor('control', 'failed')).toEqual({ kind: 'skip', reason: 'control predecessor "p" failed' });
    expect(afterPredecessor('control', 'cancelled').kind).toBe('skip');
  });

  it('lets a control successor run after a failure its node tolerates (continue_on_error)', () => {
    expect(afterPredecessor('control', 'failed', { continue_on_error: true }).kind).toBe('start');
    // The data successor has no output to read, so it is still skipped.
    expect(afterPredecessor('data', 'failed', { continue_on_error: true }).kind).toBe('skip');
  });

  it('propagates a skip down a data chain but a control chain resumes', () => {
    const run = makeRun(
      [
        { id: 'a', op: 'noop' },
        { id: 'g', op: 'noop', guards: { eq: [{ ref: 'inputs.go' }, true] } },
        { id: 'd1', op: 'noop' },
        { id: 'd2', op: 'noop' },
        { id: 'c1', op: 'noop' },
      ],
      [
        { from: 'a', to: 'g', kind: 'control' },
        { from: 'g', to: 'd1', kind: 'data' },
        { from: 'd1', to: 'd2', kind: 'data' },
        { from: 'g', to: 'c1', kind: 'control' },
      ],
      { go: false },
    );
    drain(run);
    run.finish('a', 'succeeded', T);
    expect(drain(run)).toEqual(['c1']);
    expect(states(run)).toMatchObject({ g: 'skipped', d1: 'skipped', d2: 'skipped', c1: 'running' });
    expect(run.status.get('g')!.reason).toBe('guard is false');
    expect(run.status.get('d2')!.reason).toBe('data predecessor "d1" skipped');
  });

  it('evaluates guards against inputs and upstream outputs', () => {
    const run = makeRun(
      [
        { id: 'a', op: 'noop' },
        { id: 'big', op: 'noop', guards: { gt: [{ ref: 'nodes.a.output.n' }, { ref: 'inputs.limit' }] } },
        { id: 'small', op: 'noop', guards: { lte: [{ ref: 'nodes.a.output.n' }, { ref: 'inputs.limit' }] } },
      ],
      [
        { from: 'a', to: 'big', kind: 'data' },
        { from: 'a', to: 'small', kind: 'data' },
      ],
      { limit: 10 },
    );
    drain(run);
    run.finish('a', 'succeeded', T, { output: { n: 3 } });
    expect(drain(run)).toEqual(['small']);
    expect(stateOf(run, 'big')).toBe('skipped');
  });
});

describe('PlanRun data and scope', () => {
  it('gives a node only its data predecessors outputs and only its predecessors in scope', () => {
    const run = makeRun(
      ['a', 'b', 'c', 'x'].map((id) => ({ id, op: 'noop' })),
      [
        { from: 'a', to: 'c', kind: 'data' },
        { from: 'b', to: 'c', kind: 'control' },
      ],
      { k: 1 },
    );
    drain(run);
    run.finish('a', 'succeeded', T, { output: { v: 'A' } });
    run.finish('b', 'succeeded', T, { output: 'B' });
    run.finish('x', 'succeeded', T, { output: 'X' });
    expect(run.dataInputs('c')).toEqual({ a: { v: 'A' } });
    expect(run.scopeFor('c')).toEqual({ inputs: { k: 1 }, nodes: { a: { state: 'succeeded', output: { v: 'A' } }, b: { state: 'succeeded', output: 'B' } }, run: RUN });
  });
});

describe('PlanRun terminal bookkeeping', () => {
  it('cancels only pending nodes and ignores a second finish', () => {
    const run = makeRun(['a', 'b', 'c'].map((id) => ({ id, op: 'noop' })), [{ from: 'a', to: 'c', kind: 'control' }]);
    drain(run);
    run.finish('b', 'failed', T, { attempts: 2, error: { type: 'boom', message: 'x' } });
    run.cancelPending(T, 'run aborted');
    expect(states(run)).toEqual({ a: 'running', b: 'failed', c: 'cancelled' });
    expect(run.hasReady()).toBe(false);
    expect(run.running).toBe(1);
    run.finish('b', 'succeeded', T);
    expect(run.status.get('b')).toMatchObject({ state: 'failed', attempts: 2, error: { type: 'boom' } });
    run.finish('a', 'cancelled', T, { reason: 'run aborted' });
    expect(run.done).toBe(true);
    expect(run.running).toBe(0);
  });

  it('snapshots copies, so later changes do not leak into an earlier answer', () => {
    const run = makeRun([{ id: 'a', op: 'noop' }]);
    drain(run);
    const before = run.snapshot();
    run.finish('a', 'succeeded', T, { output: 1, attempts: 1 });
    expect(before[0]!.state).toBe('running');
    expect(run.snapshot()[0]).toMatchObject({ id: 'a', op: 'noop', state: 'succeeded', attempts: 1, output: 1 });
  });
});

describe('PlanRun approvals and reuse', () => {
  it('a waiting node holds a slot, shows its prompt and no execution, and frees the slot when it ends', () => {
    const run = makeRun([{ id: 'ok', op: 'approval', params: { prompt: 'Go?' } }, { id: 'next', op: 'noop' }], [{ from: 'ok', to: 'next', kind: 'data' }]);
    const d = run.nextDecision()!;
    expect(d).toMatchObject({ kind: 'start', node: { id: 'ok' } });
    run.markWaiting('ok', T, 'Go?');
    expect(run.status.get('ok')).toMatchObject({ state: 'waiting', prompt: 'Go?', started_at: T });
    expect(run.status.get('ok')!.execution).toBeUndefined();
    expect(run.running).toBe(1);
    run.finish('ok', 'failed', T, { error: { type: 'approval_rejected', message: 'no' } });
    expect(run.running).toBe(0);
    expect(run.nextDecision()).toMatchObject({ kind: 'skip', node: { id: 'next' } });
  });

  it('a reused node succeeds with the old output and releases its successors without running', () => {
    const run = makeRun([{ id: 'a', op: 'noop' }, { id: 'b', op: 'echo', params: { v: '{{nodes.a.output.v}}' } }], [{ from: 'a', to: 'b', kind: 'data' }]);
    expect(run.nextDecision()).toMatchObject({ kind: 'start', node: { id: 'a' } });
    run.reuse('a', T, { v: 7 }, 2, 'old-run');
    expect(run.status.get('a')).toMatchObject({ state: 'succeeded', output: { v: 7 }, attempts: 2, reused_from: 'old-run' });
    expect(run.running).toBe(0);
    expect(run.nextDecision()).toMatchObject({ kind: 'start', node: { id: 'b' } });
    expect(run.dataInputs('b')).toEqual({ a: { v: 7 } });
  });
});
