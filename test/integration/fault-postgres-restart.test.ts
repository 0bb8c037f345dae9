/**
 * Fault: Postgres itself restarted (stopped like a crash, then started) while runs are in
 * flight. Activities that meet the dead connections fail and are retried; every run completes
 * and is counted exactly once. Uses a Postgres server of the test's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../src/db/client';
import { startPlanRun } from '../../src/runs/start-run';
import { metricsOf, runRows } from './executor-helpers';
import { createTestContext, uid, type TestContext } from './harness';
import { storePlan } from './plans';
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from './private-postgres';

let postgres: PrivatePostgres | undefined;
let ctx: TestContext;
beforeAll(async () => {
  if (!privatePostgresAvailable) return;
  postgres = await startPrivatePostgres();
  const url = postgres.url('plangraph_restart');
  await prepareDatabase(url);
  ctx = await createTestContext({ DATABASE_URL: url });
});
afterAll(async () => {
  await ctx?.close();
  await postgres?.stop();
});

describe.skipIf(!privatePostgresAvailable)('fault: Postgres restarted mid-run', () => {
  it('every run completes and is counted once', async () => {
    const policy = { retry: { maximum_attempts: 20, initial_interval: '200ms' } };
    const record = await storePlan(ctx.db, {
      intent: uid('pg-restart'),
      nodes: ['a', 'b'].map((id) => ({ id, op: 'timed', params: { ms: 400 }, policy })),
      edges: [{ from: 'a', to: 'b', kind: 'data' }],
    });
    const runs = 8;
    const results = await ctx.withWorker(async () => {
      const handles = [];
      let restarted: Promise<void> = Promise.resolve();
      for (let i = 0; i < runs; i++) {
        handles.push(await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record }));
        // Staggered, so runs are opening, running and closing when Postgres goes away.
        await new Promise((resolve) => setTimeout(resolve, 150));
        if (i === runs / 2) restarted = postgres!.restart();
      }
      await restarted;
      return Promise.all(handles.map((handle) => handle.result()));
    });
    expect(results.map((r) => r.state)).toEqual(Array(runs).fill('succeeded'));
    expect(await runRows(ctx.db, record.id)).toHaveLength(runs);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: runs, counters: { successes: runs, failures: 0, latency_samples: runs } });
  });
});
