import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLIDATION_ID, describeConsolidationSchedule, ensureConsolidationSchedule } from '../../src/consolidation/scheduling';
import { createTestContext, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('consolidation schedule', () => {
  it('starts the cron workflow under its fixed id with the configured schedule, and a second start keeps it', async () => {
    const config = { ...ctx.config, CONSOLIDATION_CRON: '*/20 * * * *', CONSOLIDATION_MODE: 'cron' as const };
    const first = await ensureConsolidationSchedule(ctx.client, config);
    try {
      expect(first).toMatchObject({ started: true, mode: 'cron', id: CONSOLIDATION_ID, cron: '*/20 * * * *' });
      const handle = ctx.client.workflow.getHandle(CONSOLIDATION_ID);
      const description = await handle.describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.type).toBe('consolidationWorkflow');
      expect(description.taskQueue).toBe(ctx.taskQueue);
      expect(await describeConsolidationSchedule(ctx.client, config)).toEqual({ mode: 'cron', id: CONSOLIDATION_ID, cron: '*/20 * * * *' });

      const second = await ensureConsolidationSchedule(ctx.client, { ...config, CONSOLIDATION_CRON: '0 0 * * *' });
      expect(second).toMatchObject({ started: false, cron: '*/20 * * * *' });
      expect(second.message).toMatch(/already exists/);
      expect((await handle.describe()).runId).toBe(description.runId);
    } finally {
      await ctx.client.workflow.getHandle(CONSOLIDATION_ID).terminate('test done');
    }
  });

  it('offers a Temporal Schedule instead, also kept when started twice', async () => {
    const config = { ...ctx.config, CONSOLIDATION_CRON: '15 * * * *', CONSOLIDATION_MODE: 'schedule' as const };
    const first = await ensureConsolidationSchedule(ctx.client, config);
    try {
      expect(first).toMatchObject({ started: true, mode: 'schedule', id: CONSOLIDATION_ID });
      const description = await ctx.client.schedule.getHandle(CONSOLIDATION_ID).describe();
      expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'consolidationWorkflow', taskQueue: ctx.taskQueue });
      expect(description.spec.calendars?.[0]).toMatchObject({ minute: [{ start: 15, end: 15, step: 1 }] });
      const second = await ensureConsolidationSchedule(ctx.client, config);
      expect(second).toMatchObject({ started: false, cron: '15 * * * *' });
    } finally {
      await ctx.client.schedule.getHandle(CONSOLIDATION_ID).delete();
    }
  });
});
