/**
 * Fault: Postgres itself restarted (stopped like a crash, then started) while runs are in
 * flight and while a consolidation pass works. Activities that meet the dead connections fail
 * and are retried; every run completes and is counted exactly once, every episode becomes
 * exactly one plan. Uses a Postgres server of the test's own.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import { prepareDatabase } from '../../src/db/client';
import { createEpisodeStore } from '../../src/store/episodes';
import { episode } from './episodes';
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
/** Teardown after a deliberate crash is bounded: a close that overruns is reported and left behind, not a failed suite. */
const CLOSE_WITHIN_MS = 30_000;
async function closeWithin(what: string, close: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`${what} did not finish within ${CLOSE_WITHIN_MS} ms after the restart; left behind`);
      resolve();
    }, CLOSE_WITHIN_MS);
  });
  await Promise.race([close(), overrun]).finally(() => clearTimeout(timer));
}
afterAll(async () => {
  // ctx.close()'s steps one by one, so a report names the one that overran (in full-suite runs a
  // close has overrun after all assertions passed; alone, it never has).
  if (ctx) {
    await closeWithin('closing the Temporal client connection', () => ctx.client.connection.close());
    await closeWithin('closing the worker connection', () => ctx.nativeConnection.close());
    await closeWithin('ending the database pool', () => ctx.db.$client.end());
  }
  if (postgres) await closeWithin('stopping the private Postgres', () => postgres!.stop());
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

  it('a consolidation pass completes; every episode becomes exactly one plan, counted once', async () => {
    const prefix = uid('pgc');
    const count = 300;
    // Distinct tools per episode: no structural twins, so each episode makes a plan of its own.
    const episodes = Array.from({ length: count }, (_, i) =>
      episode(`${prefix}-${i}`, [
        { id: 'a', tool: `${prefix}-${i}-a` },
        { id: 'b', tool: `${prefix}-${i}-b`, depends_on: ['a'] },
        { id: 'c', tool: `${prefix}-${i}-c`, depends_on: ['b'] },
      ]),
    );
    await createEpisodeStore(ctx.db).insertMany(episodes);
    let finishedBeforeRestart = false;
    const result = await ctx.withWorker(async () => {
      const pass = runConsolidationOnce(ctx.client, ctx.config, { pageSize: 10 });
      void pass.then(() => (finishedBeforeRestart = true));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const stillRunning = !finishedBeforeRestart;
      await postgres!.restart();
      expect(stillRunning, 'the restart fell inside the pass').toBe(true);
      return pass;
    });
    expect(result.created).toBe(count);
    const plans = await ctx.db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM memory_records WHERE type = 'plan_graph' AND label LIKE ${`${prefix}-%`}`);
    expect(plans.rows[0]!.n).toBe(count);
    const wrongCounts = await ctx.db.execute(sql`
      SELECT r.id FROM memory_records r LEFT JOIN plan_stats s ON s.plan_id = r.id
       WHERE r.type = 'plan_graph' AND r.label LIKE ${`${prefix}-%`} AND coalesce(s.successes + s.failures, 0) <> 1`);
    expect(wrongCounts.rows).toHaveLength(0);
  });
});
