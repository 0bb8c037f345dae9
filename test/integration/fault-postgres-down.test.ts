/**
 * Fault: Postgres is unreachable from the worker when a run finishes. The worker reaches
 * Postgres through a proxy the test controls (the shared server is never stopped). The run does
 * not wait on its bookkeeping: it completes with its result while the worker's outcome sink keeps
 * retrying in the background, and the outcome is counted once, exactly once, when Postgres is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusQuery } from '../../src/domain/run-state';
import { startPlanRun } from '../../src/runs/start-run';
import { byId, metricsOf, runRows, until } from './executor-helpers';
import { spawnWorker, type ChildHandle } from './fault-processes';
import { createTestContext, TEST_OPS_MODULE, uid, type TestContext } from './harness';
import { storePlan } from './plans';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let ctx: TestContext;
let proxy: TcpProxy;
let worker: ChildHandle | undefined;
beforeAll(async () => {
  ctx = await createTestContext();
  const db = new URL(ctx.config.DATABASE_URL);
  proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
});
afterAll(async () => {
  await worker?.kill('SIGKILL');
  await proxy?.close();
  await ctx?.close();
});

describe('fault: Postgres unavailable when a run finishes', () => {
  it('completes the run without Postgres and counts its outcome once when Postgres is back', async () => {
    worker = await spawnWorker({
      DATABASE_URL: proxy.via(ctx.config.DATABASE_URL),
      TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: ctx.taskQueue,
      OPS_MODULES: TEST_OPS_MODULE,
    });
    const record = await storePlan(ctx.db, {
      intent: uid('pgdown'),
      nodes: [
        { id: 'work', op: 'sleep', params: { ms: 1_000 } },
        { id: 'shape', op: 'echo', params: { slept: '{{nodes.work.output.slept_ms}}' } },
      ],
      edges: [{ from: 'work', to: 'shape', kind: 'data' }],
    });
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
    await until(() => handle.query(statusQuery), (s) => s.nodes.some((n) => n.state === 'running'), 'the first node to run');
    expect((await runRows(ctx.db, record.id))[0]).toMatchObject({ status: 'running' });

    proxy.refuse();
    // The nodes finish without Postgres and the run completes: its result does not wait on the outcome.
    const result = await handle.result();
    expect(result.state).toBe('succeeded');
    const work = byId(result).work!.output as { slept_ms: number };
    expect(byId(result).shape!.output).toMatchObject({ slept: work.slept_ms });
    await until(async () => proxy.refused, (refused) => refused >= 3, 'the worker to retry the outcome');
    expect((await runRows(ctx.db, record.id))[0]).toMatchObject({ status: 'running', finished_at: null });
    expect((await metricsOf(ctx.db, record.id)).execution_count).toBe(0);

    proxy.accept();
    await until(() => metricsOf(ctx.db, record.id), (m) => m.execution_count > 0, 'the outcome to be counted once Postgres is back', 90_000);
    const rows = await runRows(ctx.db, record.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', latency_ms: result.latency_ms });
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, counters: { successes: 1, failures: 0, latency_samples: 1 } });
  }, 150_000);
});
