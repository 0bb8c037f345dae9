/**
 * Metrics exactly once: a retried outcome write (the activity of older runs, the worker's sink of
 * new ones) changes nothing, and many runs of one plan finishing together lose no update.
 */
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunActivities } from '../../activities/run-activities';
import type { RunOutcome } from '../../src/domain/run-state';
import { createRunOutcomeSink } from '../../src/runs/outcome-sink';
import { startPlanRun } from '../../src/runs/start-run';
import { createRunStore } from '../../src/store/plan-runs';
import { createRecordStore } from '../../src/store/records';
import { loadOpRegistry } from '../../src/ops/registry';
import { createWorker } from '../../src/temporal/worker';
import { metricsOf, runRows, settle } from './executor-helpers';
import { createTestContext, uid, type TestContext } from './harness';
import { storePlan } from './plans';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const outcome = (planId: string, status: RunOutcome['status'], latency = 100): RunOutcome => ({
  plan_record_id: planId,
  plan_revision: 1,
  workflow_id: uid('wf'),
  run_id: uid('run'),
  status,
  started_at: '2024-05-01T10:00:00.000Z',
  finished_at: '2024-05-01T10:00:01.000Z',
  latency_ms: latency,
});

describe('the run-outcome activity', () => {
  it('counts a run once however often it is retried after its commit', async () => {
    const record = await storePlan(ctx.db, { nodes: [{ id: 'a', op: 'noop' }], intent: uid('intent') });
    const activities = createRunActivities({ runs: createRunStore(ctx.db), registry: new Map(), records: createRecordStore(ctx.db) });
    const o = outcome(record.id, 'failed', 250);
    expect(await activities.recordRunOutcome(o)).toEqual({ counted: true });
    expect(await activities.recordRunOutcome(o)).toEqual({ counted: false });
    // Even a retry carrying a different status (it cannot happen, but must not double count).
    expect(await activities.recordRunOutcome({ ...o, status: 'succeeded' })).toEqual({ counted: false });
    const metrics = await metricsOf(ctx.db, record.id);
    expect(metrics).toMatchObject({ execution_count: 1, failure_rate: 1, avg_latency_ms: 250, counters: { successes: 0, failures: 1, latency_samples: 1 } });
    expect(await runRows(ctx.db, record.id)).toEqual([expect.objectContaining({ workflow_id: o.workflow_id, status: 'failed', latency_ms: 250 })]);
  });

  it('loses no update when many outcomes of one plan, each delivered twice, commit at once', async () => {
    const record = await storePlan(ctx.db, { nodes: [{ id: 'a', op: 'noop' }], intent: uid('intent') });
    const runs = createRunStore(ctx.db);
    const outcomes = Array.from({ length: 40 }, (_, i) => outcome(record.id, i % 4 === 0 ? 'failed' : 'succeeded', 10 * (i + 1)));
    const counted = await Promise.all([...outcomes, ...outcomes].map((o) => runs.closeRun(o)));
    expect(counted.filter(Boolean)).toHaveLength(40);
    const metrics = await metricsOf(ctx.db, record.id);
    expect(metrics).toMatchObject({ execution_count: 40, failure_rate: 0.25, avg_latency_ms: 205, counters: { successes: 30, failures: 10, latency_samples: 40 } });
  });

  it('writes outcomes that arrive together as one batch: each plan counts its own runs, a bad outcome fails alone', async () => {
    const plans = await Promise.all([0, 1].map(() => storePlan(ctx.db, { nodes: [{ id: 'a', op: 'noop' }], intent: uid('intent') })));
    const runs = createRunStore(ctx.db);
    const opened = outcome(plans[0]!.id, 'succeeded', 30);
    await runs.openRun({ ...opened, started_at: '2024-05-01T09:59:59.000Z' });
    const deletedPlan = outcome('6f1c2d7e-0000-4000-8000-000000000000', 'succeeded');
    const bad = { ...outcome(plans[1]!.id, 'failed'), plan_record_id: 'not-a-uuid' };
    const batch = [opened, outcome(plans[0]!.id, 'failed', 90), outcome(plans[1]!.id, 'succeeded', 40), deletedPlan, bad, outcome(plans[1]!.id, 'succeeded', 60)];
    const results = await Promise.all(batch.map((o) => runs.closeRun(o).then((c) => c, (err: Error) => err.message)));
    expect(results.slice(0, 4)).toEqual([true, true, true, false]);
    expect(results[4]).toMatch(/uuid/);
    expect(results[5]).toBe(true);
    expect(await metricsOf(ctx.db, plans[0]!.id)).toMatchObject({ execution_count: 2, failure_rate: 0.5, avg_latency_ms: 60 });
    expect(await metricsOf(ctx.db, plans[1]!.id)).toMatchObject({ execution_count: 2, failure_rate: 0, avg_latency_ms: 50 });
    // The row the starter opened is the one closed.
    expect(await runRows(ctx.db, plans[0]!.id)).toContainEqual(expect.objectContaining({ workflow_id: opened.workflow_id, status: 'succeeded', latency_ms: 30 }));
  });

  it('counts a real run once when its outcome write fails after committing and the worker retries it', async () => {
    const record = await storePlan(ctx.db, { nodes: [{ id: 'a', op: 'echo', params: { x: 1 } }], intent: uid('intent') });
    const registry = await loadOpRegistry(ctx.config);
    const store = createRunStore(ctx.db);
    const counted: boolean[] = [];
    const outcomes = createRunOutcomeSink({
      runs: {
        // The commit happens, then the acknowledgement is "lost": the worker writes the outcome again.
        async closeRun(o: RunOutcome) {
          const result = await store.closeRun(o);
          counted.push(result);
          if (counted.length === 1) throw new Error('connection lost after commit');
          return result;
        },
      },
      log: { warn() {}, info() {} },
      retryInitialMs: 20,
    });
    const taskQueue = uid('tq-retry');
    const worker = await createWorker({
      config: ctx.config,
      db: ctx.db,
      registry,
      connection: ctx.nativeConnection,
      workflowBundlePath: inject('workflowBundlePath'),
      taskQueue,
      extra: { sinks: outcomes.sinks },
    });
    const { status } = await worker.runUntil(async () => settle(await startPlanRun({ client: ctx.client, taskQueue, record })));
    expect(status.state).toBe('succeeded');
    expect(counted).toEqual([true, false]);
    expect(outcomes.pending()).toBe(0);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 0, counters: { successes: 1, failures: 0 } });
    expect(await runRows(ctx.db, record.id)).toHaveLength(1);
  });
});

describe('many runs of one plan', () => {
  it('counts 50 concurrent runs exactly, 15 failing and 35 succeeding', async () => {
    const record = await storePlan(ctx.db, {
      intent: uid('intent'),
      nodes: [
        { id: 'check', op: 'noop' },
        { id: 'maybe_fail', op: 'fail', guards: { eq: [{ ref: 'inputs.fail' }, true] } },
      ],
      edges: [{ from: 'check', to: 'maybe_fail', kind: 'control' }],
    });
    const before = await metricsOf(ctx.db, record.id);
    const statuses = await ctx.withWorker(async () => {
      const handles = await Promise.all(
        Array.from({ length: 50 }, (_, i) => startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, inputs: { fail: i < 15 } })),
      );
      return Promise.all(handles.map(async (h) => (await settle(h)).status.state));
    });
    expect(statuses.filter((s) => s === 'failed')).toHaveLength(15);
    expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(35);
    const after = await metricsOf(ctx.db, record.id);
    expect(after.execution_count - before.execution_count).toBe(50);
    expect(after.failure_rate).toBe(0.3);
    expect(after.counters).toMatchObject({ successes: 35, failures: 15, latency_samples: 50 });
    expect(after.last_executed_at).not.toBeNull();
    const rows = await runRows(ctx.db, record.id);
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });
});
