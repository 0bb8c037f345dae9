import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlanRun } from '../../src/runs/start-run';
import { createRecordStore } from '../../src/store/records';
import { createTestContext, type TestContext } from './harness';
import { chain, storePlan } from './plans';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('smoke: a plan runs on the real Temporal server and Postgres', () => {
  it('runs a 3-node chain and counts it once in the plan metrics', async () => {
    const record = await storePlan(ctx.db, chain(3, 'echo'));
    const result = await ctx.withWorker(async () => {
      const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
      return handle.result();
    });
    expect(result.state).toBe('succeeded');
    expect(result.nodes.map((n) => n.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const stored = await createRecordStore(ctx.db).get(record.id);
    expect(stored?.payload.kind === 'plan_graph' && stored.payload.metrics.execution_count).toBe(1);
  });
});
