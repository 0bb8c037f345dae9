/**
 * Fault: a run's workflow is terminated, so its finalizer never records the outcome, or its worker
 * could not write the outcome before it stopped. The reconciliation the consolidation pass runs
 * closes the row and counts the run exactly once, from what Temporal recorded.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createReconcileActivities } from '../../activities/reconcile-activities';
import { statusQuery } from '../../src/domain/run-state';
import { loadOpRegistry } from '../../src/ops/registry';
import { createRunOutcomeSink } from '../../src/runs/outcome-sink';
import { reconcileOpenRuns } from '../../src/runs/reconcile';
import { startPlanRun } from '../../src/runs/start-run';
import { createRunStore } from '../../src/store/plan-runs';
import { createRecordStore } from '../../src/store/records';
import { createRunViewer } from '../../src/intents/run-view';
import { createWorker } from '../../src/temporal/worker';
import { metricsOf, runRows, until } from './executor-helpers';
import { createTestContext, uid, type TestContext } from './harness';
import { storePlan } from './plans';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** Starts a run of a one-node plan that sleeps far longer than the test, and waits until its node runs. */
async function startLongRun() {
  const record = await storePlan(ctx.db, { intent: uid('long'), nodes: [{ id: 'wait', op: 'sleep', params: { ms: 600_000 }, policy: { heartbeat_timeout: '5s' } }] });
  const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
  await until(() => handle.query(statusQuery), (s) => s.nodes[0]?.state === 'running', 'the sleep node to run');
  return { record, handle };
}

describe('fault: terminated runs are reconciled exactly once', () => {
  it('closes a terminated run as failed, counts it once, and leaves a running one open', async () => {
    const runs = createRunStore(ctx.db);
    await ctx.withWorker(async () => {
      const terminated = await startLongRun();
      const alive = await startLongRun();
      await terminated.handle.terminate('fault test: no finalizer may run');
      expect((await runRows(ctx.db, terminated.record.id))[0]).toMatchObject({ status: 'running', finished_at: null });

      // Twice, as a retried or repeated pass would: the second must change nothing.
      const first = await reconcileOpenRuns({ client: ctx.client, runs });
      await reconcileOpenRuns({ client: ctx.client, runs });
      expect(first.running).toBeGreaterThanOrEqual(1);

      const [row] = await runRows(ctx.db, terminated.record.id);
      expect(row).toMatchObject({ status: 'failed' });
      expect(row!.finished_at).not.toBeNull();
      expect(row!.latency_ms).toBeGreaterThan(0);
      const metrics = await metricsOf(ctx.db, terminated.record.id);
      expect(metrics).toMatchObject({ execution_count: 1, failure_rate: 1, counters: { successes: 0, failures: 1, latency_samples: 1 } });
      // Its view: the node it left running was cancelled by the termination, not still running.
      const viewer = createRunViewer({ config: ctx.config, client: ctx.client, records: createRecordStore(ctx.db), runs });
      const view = await viewer.view(terminated.handle.workflowId, { max_sensitivity: 'high', authenticated: true });
      expect(view.state).toBe('terminated');
      expect(view.result?.state).toBe('cancelled');
      expect(view.result?.nodes).toEqual([expect.objectContaining({ id: 'wait', state: 'cancelled', reason: 'the run was terminated' })]);

      // The run still going is untouched by either pass.
      expect((await runRows(ctx.db, alive.record.id))[0]).toMatchObject({ status: 'running', finished_at: null });
      expect((await metricsOf(ctx.db, alive.record.id)).execution_count).toBe(0);
      await alive.handle.terminate('cleanup');
    });
  });

  it('counts runs whose outcome never reached Postgres from how they closed: succeeded and failed', async () => {
    const record = await storePlan(ctx.db, { intent: uid('unwritten'), nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'fail', guards: { eq: [{ ref: 'inputs.fail' }, true] } }] });
    // A worker whose outcome writes never get through (and are not retried within the test).
    const unwritten = createRunOutcomeSink({ runs: { closeRun: () => Promise.reject(new Error('Postgres unreachable')) }, log: { warn() {}, info() {} }, waitMs: 50, retryInitialMs: 600_000 });
    const taskQueue = uid('tq-unwritten');
    const worker = await createWorker({
      config: ctx.config,
      db: ctx.db,
      registry: await loadOpRegistry(ctx.config),
      connection: ctx.nativeConnection,
      workflowBundlePath: inject('workflowBundlePath'),
      taskQueue,
      extra: { sinks: unwritten.sinks },
    });
    const states = await worker.runUntil(async () => {
      const ok = await startPlanRun({ client: ctx.client, taskQueue, record, inputs: { fail: false } });
      const failing = await startPlanRun({ client: ctx.client, taskQueue, record, inputs: { fail: true } });
      return [(await ok.result()).state, await failing.result().then(() => 'succeeded', () => 'failed')];
    });
    expect(states).toEqual(['succeeded', 'failed']);
    expect(await runRows(ctx.db, record.id)).toEqual([expect.objectContaining({ status: 'running' }), expect.objectContaining({ status: 'running' })]);
    expect(unwritten.pending()).toBe(2);

    const runs = createRunStore(ctx.db);
    await reconcileOpenRuns({ client: ctx.client, runs });
    await reconcileOpenRuns({ client: ctx.client, runs });
    expect((await runRows(ctx.db, record.id)).map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 2, failure_rate: 0.5, counters: { successes: 1, failures: 1, latency_samples: 2 } });
  });

  it('the activity the consolidation pass calls does the same through the worker client, idempotently', async () => {
    const runs = createRunStore(ctx.db);
    const { reconcileOpenRuns: activity } = createReconcileActivities({ runs });
    await ctx.withWorker(async () => {
      const { record, handle } = await startLongRun();
      await handle.terminate('fault test');
      const env = new MockActivityEnvironment({}, { client: ctx.client });
      // A retried activity (same effect twice) must not count the run twice.
      await env.run(activity);
      await env.run(activity);
      const [row] = await runRows(ctx.db, record.id);
      expect(row).toMatchObject({ status: 'failed' });
      expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, counters: { failures: 1 } });
      const stored = await ctx.db.execute<{ error: { type: string } }>(sql`SELECT error FROM plan_runs WHERE workflow_id = ${handle.workflowId}`);
      expect(stored.rows[0]?.error.type).toBe('terminated');
    });
  });
});
