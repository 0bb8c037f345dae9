import { describe, expect, it } from 'vitest';
import { planFromEpisode } from '../../src/consolidation/episode-to-plan';
import { antiUnify } from '../../src/consolidation/generalise';
import { namesRequestToken, RUN_ID_REF } from '../../src/consolidation/run-tokens';
import { validatePlanGraph } from '../../src/domain/graph';
import { episodicPayloadSchema, type EpisodicPayload } from '../../src/domain/records';

const NOW = '2025-01-02T00:00:00.000Z';

/** A refund an agent made: it looked the order up, charged back with a key of its own making, and mailed the customer. */
function refundEpisode(order: string, key: string, over: { second_key?: string } = {}): EpisodicPayload {
  return episodicPayloadSchema.parse({
    kind: 'episodic',
    outcome: 'success',
    timeline: [{ t: 1000, event_kind: 'user_message', summary: `Refund order ${order} in full` }],
    tool_graph: [
      { id: 'lookup', tool: 'orders_get', args: { order_id: order }, result: { payment: `pay_${order}`, email: 'kim@example.com' }, timestamp: 1000 },
      {
        id: 'refund',
        tool: 'payments_refund',
        args: { payment: `pay_${order}`, headers: { 'Idempotency-Key': key }, reason: `refund-${key}` },
        depends_on: ['lookup'],
        timestamp: 2000,
      },
      {
        id: 'notify',
        tool: 'email_send',
        args: { to: 'kim@example.com', request_id: over.second_key ?? key.toUpperCase(), body: 'Your refund is on its way' },
        depends_on: ['refund'],
        timestamp: 3000,
      },
    ],
  });
}

describe('request tokens an agent made up', () => {
  it('are named by a request word and a token word, a client token or a nonce; a client id is not one', () => {
    for (const key of ['request_id', 'X-Request-ID', 'idempotencyKey', 'Idempotency-Key', 'dedupe_key', 'correlationId', 'trace_id', 'client_token', 'ClientRequestToken', 'nonce', 'req_id']) {
      expect(namesRequestToken(key), key).toBe(true);
    }
    for (const key of ['client_id', 'order_id', 'id', 'key', 'token', 'api_key', 'request', 'requester', 'trace']) expect(namesRequestToken(key), key).toBe(false);
  });

  it('become the run’s own id wherever a param holds them, so the next run does not replay an old request', () => {
    const key = '3f2a9c1e-8b7d-4e6f-a5c4-1d2e3f4a5b6c';
    const plan = planFromEpisode(refundEpisode('A-1001', key), 'p', NOW);
    const refund = plan.nodes.find((n) => n.id === 'refund')!.params;
    expect(refund.headers).toEqual({ 'Idempotency-Key': RUN_ID_REF });
    expect(refund.reason).toBe(`refund-${RUN_ID_REF}`);
    // Written in capitals elsewhere, it is the same token.
    expect(plan.nodes.find((n) => n.id === 'notify')!.params.request_id).toBe(RUN_ID_REF);
    expect(validatePlanGraph(plan)).toEqual([]);
    expect(Object.keys((plan.inputs_schema.properties ?? {}) as object)).toEqual(['order_id']);
    // Twins agree on it: a constant, never an input a caller must invent.
    const twin = planFromEpisode(refundEpisode('A-2002', '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'), 'p', NOW);
    const merged = antiUnify(plan, twin);
    expect(merged.nodes.find((n) => n.id === 'refund')!.params.headers).toEqual({ 'Idempotency-Key': RUN_ID_REF });
    expect(Object.keys((merged.inputs_schema.properties ?? {}) as object)).toEqual(['order_id']);
  });

  it('stay as they were when the episode made up several, when the task named one, or with generalisation off', () => {
    const key = '3f2a9c1e-8b7d-4e6f-a5c4-1d2e3f4a5b6c';
    const two = planFromEpisode(refundEpisode('A-1001', key, { second_key: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }), 'p', NOW);
    expect(JSON.stringify(two.nodes)).not.toContain('run.id');
    const stated = refundEpisode('A-1001', key);
    stated.timeline[0]!.summary = `Refund order A-1001 in full with idempotency key ${key}`;
    const named = planFromEpisode(stated, 'p', NOW);
    expect(named.nodes.find((n) => n.id === 'refund')!.params.headers).toEqual({ 'Idempotency-Key': expect.stringMatching(/^\{\{inputs\./) });
    expect(JSON.stringify(planFromEpisode(refundEpisode('A-1001', key), 'p', NOW, { generalise: false }).nodes)).not.toContain('run.id');
  });
});
