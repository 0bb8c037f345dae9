/**
 * Sustained load on the API over loopback, bounded in time: a fixed request rate of mixed
 * writes and reads (episodes, plan runs, retrieval, listing, bad input) for a few seconds. Every
 * answer is what the request deserves — never a 5xx, never a dropped connection. p50/p99 are
 * logged for the record; speed targets live in the bench, not here.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestContext, type ApiTestContext } from './api-harness';
import { uid } from './harness';
import { storePlan } from './plans';

let ctx: ApiTestContext;
let base: string;
beforeAll(async () => {
  ctx = await createApiTestContext();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx?.close());

const RATE_PER_SECOND = 40;
const DURATION_MS = 6_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe('API under sustained load', () => {
  it(`answers ${RATE_PER_SECOND} req/s of mixed traffic for ${DURATION_MS / 1000} s with no 5xx`, async () => {
    const plan = await storePlan(ctx.services.records, { intent: uid('load'), sensitivity: 'public', nodes: [{ id: 'a', op: 'noop' }] });
    const requests: Array<{ method: string; path: string; body?: unknown; expect: number }> = [
      { method: 'POST', path: '/v1/episodes', body: { sensitivity: 'public', payload: { kind: 'episodic', outcome: 'success', tool_graph: [{ id: 't', tool: 'grep' }] } }, expect: 201 },
      { method: 'POST', path: '/v1/intents', body: { task_descriptor: 'load', plan_id: plan.id }, expect: 202 },
      { method: 'POST', path: '/v1/retrieve', body: { task_descriptor: 'load test', trust: { max_sensitivity: 'public', authenticated: false } }, expect: 200 },
      { method: 'GET', path: '/v1/plans?limit=20', expect: 200 },
      { method: 'POST', path: '/v1/episodes', body: { payload: { kind: 'episodic', outcome: 'success', tool_graph: [{ id: 't', tool: 'x', result: 'a\u0000b' }] } }, expect: 400 },
      { method: 'GET', path: '/healthz', expect: 200 },
    ];
    const outcomes = await ctx.withWorker(async () => {
      const pending: Array<Promise<{ status: number; ms: number; want: number; path: string }>> = [];
      const started = Date.now();
      for (let i = 0; i < (RATE_PER_SECOND * DURATION_MS) / 1000; i++) {
        const spec = requests[i % requests.length]!;
        const t0 = performance.now();
        pending.push(
          fetch(`${base}${spec.path}`, {
            method: spec.method,
            ...(spec.body !== undefined && { body: JSON.stringify(spec.body), headers: { 'content-type': 'application/json' } }),
          }).then(
            async (response) => {
              await response.arrayBuffer();
              return { status: response.status, ms: performance.now() - t0, want: spec.expect, path: spec.path };
            },
            () => ({ status: 0, ms: performance.now() - t0, want: spec.expect, path: spec.path }),
          ),
        );
        // Open-loop pacing: the next request leaves on schedule whatever the last one is doing
        // (at once when the schedule has slipped).
        const due = started + ((i + 1) * 1000) / RATE_PER_SECOND;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      }
      return Promise.all(pending);
    });
    const latencies = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    console.log(`api-load: ${outcomes.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    expect(outcomes.filter((o) => o.status >= 500 || o.status === 0)).toEqual([]);
    expect(outcomes.filter((o) => o.status !== o.want)).toEqual([]);
  });
});
