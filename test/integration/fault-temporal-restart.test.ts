/**
 * Fault: the Temporal server is killed (SIGKILL) mid-run and restarted on the same port from
 * the file it persists to. The worker and client reconnect by themselves; every run completes
 * and is counted exactly once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '../../src/net';
import { startPlanRun } from '../../src/runs/start-run';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { metricsOf, runRows } from './executor-helpers';
import { createTestContext, uid, type TestContext } from './harness';
import { storePlan } from './plans';

const dbFile = join(mkdtempSync(join(tmpdir(), 'plangraph-restart-')), 'temporal.sqlite');
let port: number;
let server: DevServer;
let ctx: TestContext;

const start = () => startDevServer({ cliPath: inject('temporalCliPath'), port, dbFile });

beforeAll(async () => {
  port = await freePort();
  server = await start();
  ctx = await createTestContext({ TEMPORAL_ADDRESS: server.address });
});
afterAll(async () => {
  await ctx?.close();
  await server?.stop();
});

describe.skipIf(!inject('temporalCliPath'))('fault: Temporal server killed and restarted mid-run', () => {
  it('every run completes and is counted once', async () => {
    const policy = { retry: { maximum_attempts: 10, initial_interval: '200ms' } };
    const record = await storePlan(ctx.db, {
      intent: uid('restart'),
      nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, op: 'timed', params: { ms: 700 }, policy })),
      edges: [{ from: 'a', to: 'b', kind: 'data' }, { from: 'b', to: 'c', kind: 'data' }, { from: 'c', to: 'd', kind: 'data' }],
    });
    const runs = 5;
    let restartedAt = 0;
    const results = await ctx.withWorker(async () => {
      const handles = await Promise.all(Array.from({ length: runs }, () => startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record })));
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      server.process.kill('SIGKILL');
      await new Promise((resolve) => server.process.once('exit', resolve));
      server = await start();
      restartedAt = Date.now();
      return Promise.all(handles.map((handle) => handle.result()));
    });
    expect(results.map((r) => r.state)).toEqual(Array(runs).fill('succeeded'));
    // The kill fell mid-run: every run still had nodes to finish after the restart.
    for (const result of results) {
      const finished = result.nodes.map((n) => (n.output as { finished: number }).finished);
      expect(Math.max(...finished)).toBeGreaterThan(restartedAt);
    }
    expect(await runRows(ctx.db, record.id)).toHaveLength(runs);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: runs, counters: { successes: runs, failures: 0, latency_samples: runs } });
  });
});
