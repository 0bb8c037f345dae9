/**
 * Worker metrics: with WORKER_METRICS_ADDRESS a worker process serves the Temporal SDK's metrics
 * in Prometheus format, including each op's execution latency (activity type = op).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/net';
import { startPlanRun } from '../../src/runs/start-run';
import { spawnWorker, type ChildHandle } from './fault-processes';
import { createTestContext, TEST_OPS_MODULE, uid, type TestContext } from './harness';
import { storePlan } from './plans';

let ctx: TestContext;
let worker: ChildHandle | undefined;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await worker?.kill('SIGKILL');
  await ctx?.close();
});

describe('worker metrics', () => {
  it('serves Temporal worker metrics with node latency by op in Prometheus text', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    worker = await spawnWorker({
      DATABASE_URL: ctx.config.DATABASE_URL,
      TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: ctx.taskQueue,
      OPS_MODULES: TEST_OPS_MODULE,
      WORKER_METRICS_ADDRESS: address,
    });
    const record = await storePlan(ctx.db, { intent: uid('metrics'), nodes: [{ id: 'a', op: 'add', params: { a: 1, b: 2 } }] });
    expect((await (await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record })).result()).state).toBe('succeeded');

    const response = await fetch(`http://${address}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(new RegExp(`temporal_activity_execution_latency_milliseconds_count\\{[^}]*activity_type="add"[^}]*task_queue="${ctx.taskQueue}"`));
    expect(text).toMatch(/temporal_workflow_completed_total\{/);
  });
});
