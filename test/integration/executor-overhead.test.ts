/**
 * Per-node overhead of the executor on the dev server: a 20-node chain of `noop`, measured
 * server-side (workflow start to close), divided by 20. Printed for the record; bounded loosely.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlanRun } from '../../src/runs/start-run';
import { createTestContext, uid, type TestContext } from './harness';
import { chain, storePlan } from './plans';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const NODES = 20;
const RUNS = 5;

describe('executor overhead', () => {
  it(`runs a ${NODES}-node noop chain at a bounded cost per node`, async () => {
    const record = await storePlan(ctx.db, { ...chain(NODES, 'noop'), intent: uid('overhead') });
    const perNode = await ctx.withWorker(async () => {
      const samples: number[] = [];
      // One warm-up run (worker caches, first workflow task), then the measured runs.
      for (let i = 0; i <= RUNS; i++) {
        const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
        const result = await handle.result();
        expect(result.nodes.every((n) => n.state === 'succeeded')).toBe(true);
        const { startTime, closeTime } = await handle.describe();
        if (i > 0) samples.push((closeTime!.getTime() - startTime.getTime()) / NODES);
      }
      return samples.sort((a, b) => a - b);
    });
    const median = perNode[Math.floor(perNode.length / 2)]!;
    console.log(`executor overhead: ${median.toFixed(1)} ms per node (median of ${RUNS} runs of a ${NODES}-node noop chain; samples ${perNode.map((s) => s.toFixed(1)).join(', ')})`);
    // Loose: a chain node is one activity round trip; seconds per node would mean a scheduling bug.
    expect(median).toBeLessThan(500);
  });
});
