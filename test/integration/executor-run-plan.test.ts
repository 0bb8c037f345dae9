/** The library behind `plangraph run`: runPlan (store a payload or use an id) and followRun. */
import type { WorkflowHandle, WorkflowHandleWithStartDetails } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeStatus } from '../../src/domain/run-state';
import { followRun } from '../../src/runs/follow-run';
import { runPlan, type RunPlanDeps } from '../../src/runs/run-plan';
import { createRecordStore } from '../../src/store/records';
import { createRevisionStore } from '../../src/store/revisions';
import { createRunStore } from '../../src/store/plan-runs';
import { loadOpRegistry } from '../../src/ops/registry';
import { clientOver } from '../../src/temporal/connection';
import { runRows } from './executor-helpers';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
let deps: RunPlanDeps;
beforeAll(async () => {
  ctx = await createTestContext();
  deps = {
    config: ctx.config,
    registry: await loadOpRegistry(ctx.config),
    // Over the worker's connection, as `plangraph dev` starts runs: eagerly, when the worker has a slot.
    temporal: { connection: ctx.connection, client: ctx.client, starter: clientOver(ctx.nativeConnection, ctx.config.TEMPORAL_NAMESPACE) },
    records: createRecordStore(ctx.db),
    revisions: createRevisionStore(ctx.db),
    runs: createRunStore(ctx.db),
  };
});
afterAll(() => ctx?.close());

const payload = (intent: string, b = 2) => ({
  kind: 'plan_graph',
  plan_id: uid('file'),
  intent,
  inputs_schema: { type: 'object', required: ['x'] },
  nodes: [
    { id: 'sum', op: 'add', params: { a: '{{inputs.x}}', b } },
    { id: 'wait', op: 'flaky', params: { fail_times: 1 }, policy: { retry: { initial_interval: '50ms' } } },
    { id: 'show', op: 'echo', params: { text: 'x+b={{nodes.sum.output.sum}}' } },
  ],
  edges: [
    { from: 'sum', to: 'show', kind: 'data' },
    { from: 'wait', to: 'show', kind: 'control' },
  ],
});

describe('runPlan and followRun', () => {
  it('stores a payload, runs it, and reports every node state change live', async () => {
    const plan = payload(uid('intent'));
    const changes: Array<Pick<NodeStatus, 'id' | 'state' | 'attempts'>> = [];
    const status = await ctx.withWorker(async () => {
      const started = await runPlan(deps, { plan: { payload: plan }, inputs: { x: 40 } });
      expect(started.stored).toBe(true);
      return followRun(started.handle, (n) => changes.push({ id: n.id, state: n.state, attempts: n.attempts }), { pollMs: 20 });
    });
    expect(status.state).toBe('succeeded');
    expect(status.nodes.find((n) => n.id === 'show')!.output).toMatchObject({ text: 'x+b=42' });
    // Every node's last reported change is its final state, and "show" was seen waiting or running first.
    for (const node of status.nodes) expect(changes.filter((c) => c.id === node.id).at(-1)).toMatchObject({ state: node.state, attempts: node.attempts });
    expect(changes.filter((c) => c.id === 'show').length).toBeGreaterThan(1);
  });

  it('opens the run itself: no beginRun in the history, local ops still local, the row closed once with the run\'s own start', async () => {
    const plan = payload(uid('intent'));
    const { started, status, history } = await ctx.withWorker(async () => {
      const run = await runPlan(deps, { plan: { payload: plan }, inputs: { x: 1 } });
      const final = await followRun(run.handle, () => undefined);
      return { started: run, status: final, history: await run.handle.fetchHistory() };
    });
    expect(status.state).toBe('succeeded');
    // Ops that declare themselves local (the starter's registry said so) ran as markers.
    const local = (op: string) => deps.registry.get(op)?.local === true;
    expect(status.nodes.map((n) => [n.id, n.execution])).toEqual(status.nodes.map((n) => [n.id, local(n.op) ? 'local' : 'activity']));
    expect(status.nodes.some((n) => n.execution === 'local')).toBe(true);
    // Local activities: the local nodes only; no beginRun (a worker-opened run has one) and no outcome
    // activity (the worker's sink records it).
    const localActivities = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(localActivities).toHaveLength(status.nodes.filter((n) => n.execution === 'local').length);
    // The starter passed the executor version: no patch marker and no TemporalChangeVersion upsert.
    const versioning = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch' || e.upsertWorkflowSearchAttributesEventAttributes);
    expect(versioning).toEqual([]);
    const rows = await ctx.db.execute<{ status: string; started_at: string }>(sql`SELECT status, started_at FROM plan_runs WHERE plan_id = ${started.record.id}`);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ status: 'succeeded' });
    expect(new Date(rows.rows[0]!.started_at).toISOString()).toBe(status.started_at);
  });

  it('hands a run to the worker sharing the starter\'s connection (eager start), and starts it normally when none polls', async () => {
    const eagerly = (handle: WorkflowHandle) => (handle as WorkflowHandleWithStartDetails).eagerlyStarted;
    const withWorker = await ctx.withWorker(async () => {
      const run = await runPlan(deps, { plan: { payload: payload(uid('intent')) }, inputs: { x: 1 } });
      return { eager: eagerly(run.handle), status: await run.handle.result() };
    });
    expect(withWorker).toMatchObject({ eager: true, status: { state: 'succeeded' } });
    // No worker of this queue in the process: an ordinary start, which a worker picks up later.
    const run = await runPlan(deps, { plan: { payload: payload(uid('intent')) }, inputs: { x: 1 } });
    expect(eagerly(run.handle)).toBe(false);
    expect(await ctx.withWorker(() => run.handle.result())).toMatchObject({ state: 'succeeded' });
  });

  it('reuses the record when the same payload is run twice (kind filled in when left out), and runs a stored plan by id', async () => {
    const plan = payload(uid('intent'));
    const { kind: _kind, ...withoutKind } = plan;
    const [first, second, byId] = await ctx.withWorker(async () => {
      const a = await runPlan(deps, { plan: { payload: plan }, inputs: { x: 1 } });
      const b = await runPlan(deps, { plan: { payload: withoutKind }, inputs: { x: 2 } });
      const c = await runPlan(deps, { plan: { id: a.record.id }, inputs: { x: 3 } });
      for (const s of [a, b, c]) await followRun(s.handle, () => undefined);
      return [a, b, c];
    });
    expect([first.stored, second.stored, byId.stored]).toEqual([true, false, false]);
    expect(new Set([first.record.id, second.record.id, byId.record.id]).size).toBe(1);
    expect(await runRows(ctx.db, first.record.id)).toHaveLength(3);
  });

  it('refuses a different plan of the same structure as a conflict', async () => {
    const intent = uid('intent');
    await runPlan(deps, { plan: { payload: payload(intent, 2) }, inputs: { x: 1 } });
    await expect(runPlan(deps, { plan: { payload: payload(intent, 3) }, inputs: { x: 1 } })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('stores nothing for an invalid plan, an unknown op or bad inputs', async () => {
    const intent = uid('intent');
    const unknownOp = { ...payload(intent), nodes: [{ id: 'a', op: 'teleport' }], edges: [] };
    await expect(runPlan(deps, { plan: { payload: unknownOp } })).rejects.toMatchObject({ code: 'invalid_plan', details: { issues: [expect.objectContaining({ code: 'unknown_op' })] } });
    await expect(runPlan(deps, { plan: { payload: payload(intent) }, inputs: {} })).rejects.toMatchObject({ code: 'invalid_inputs' });
    // Inputs parsed from JSON outside HTTP (CLI, MCP) may hold a __proto__ key: refused, naming it.
    await expect(runPlan(deps, { plan: { payload: payload(intent) }, inputs: JSON.parse('{"x": 1, "o": {"__proto__": {"admin": true}}}') })).rejects.toMatchObject({
      code: 'invalid_inputs',
      details: { path: 'o.__proto__' },
    });
    await expect(runPlan(deps, { plan: { id: '00000000-0000-4000-8000-000000000000' } })).rejects.toMatchObject({ code: 'not_found' });
    // The valid payload was never stored by the refused call, so storing it now is a fresh record.
    const stored = await runPlan(deps, { plan: { payload: payload(intent) }, inputs: { x: 1 } });
    expect(stored.stored).toBe(true);
    await stored.handle.terminate('not needed');
  });
});
