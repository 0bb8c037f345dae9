/**
 * Oversize payloads: run inputs above RUN_INPUT_LIMIT_BYTES are refused before anything starts
 * (Temporal caps a start payload at 2 MB), and a node output above NODE_OUTPUT_LIMIT_BYTES fails
 * its node non-retryably with output_too_large.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../src/domain/principal';
import { idempotentWorkflowId } from '../../src/intents/submit-intent';
import { startPlanRun } from '../../src/runs/start-run';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';
import { byId, metricsOf, settle } from './executor-helpers';
import { uid } from './harness';
import { storePlan } from './plans';

const INPUT_LIMIT = 10_000;
let ctx: ApiTestContext;
beforeAll(async () => {
  ctx = await createApiTestContext({ RUN_INPUT_LIMIT_BYTES: String(INPUT_LIMIT) });
});
afterAll(() => ctx?.close());

describe('oversize run inputs', () => {
  it('POST /v1/intents refuses inputs above the limit with 413 naming inputs, and starts nothing', async () => {
    const record = await storePlan(ctx.db, { intent: uid('big'), sensitivity: 'public', nodes: [{ id: 'a', op: 'noop' }] });
    const key = uid('key');
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: 'big inputs', plan_id: record.id, idempotency_key: key, inputs: { blob: 'x'.repeat(INPUT_LIMIT) } });
    expect(response.statusCode, response.body).toBe(413);
    expect(errorOf(response)).toMatchObject({ code: 'payload_too_large', details: { field: 'inputs', limit_bytes: INPUT_LIMIT } });
    await expect(ctx.client.workflow.getHandle(idempotentWorkflowId(ANONYMOUS, key)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await ctx.count('plan_runs')).toBe(0);
  });

  it('startPlanRun refuses inputs above the default 1 MB limit and inputs nested too deeply', async () => {
    const record = await storePlan(ctx.db, { intent: uid('big'), nodes: [{ id: 'a', op: 'noop' }] });
    const start = (inputs: Record<string, unknown>) => startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, inputs });
    await expect(start({ blob: 'x'.repeat(1_100_000) })).rejects.toMatchObject({ code: 'payload_too_large', details: { field: 'inputs' } });
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    await expect(start({ deep })).rejects.toMatchObject({ code: 'invalid_inputs', details: { field: 'inputs' } });
  });
});

describe('oversize node output', () => {
  it('fails the node non-retryably with output_too_large; the run fails and is counted once', async () => {
    const record = await storePlan(ctx.db, {
      intent: uid('bigout'),
      nodes: [
        { id: 'big', op: 'echo', params: { blob: 'y'.repeat(5_000) }, policy: { retry: { maximum_attempts: 5 } } },
        { id: 'after', op: 'noop' },
      ],
      edges: [{ from: 'big', to: 'after', kind: 'data' }],
    });
    const { status } = await ctx.withWorker(
      async () => settle(await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record })),
      { NODE_OUTPUT_LIMIT_BYTES: 1_000 },
    );
    expect(status.state).toBe('failed');
    expect(byId(status).big).toMatchObject({ state: 'failed', attempts: 1, error: { type: 'output_too_large' } });
    expect(byId(status).big!.error!.message).toMatch(/limit is 1000/);
    expect(byId(status).after!.state).not.toBe('succeeded');
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, counters: { failures: 1 } });
  });
});
