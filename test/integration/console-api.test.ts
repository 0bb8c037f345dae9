/**
 * The API the console stands on, through the real API, Temporal and Postgres: the runs list with
 * its filters and trust rule, a run node's resolved params, whoami, episodes by id, and the /ui
 * shell and assets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';
import { uid } from './harness';
import { storePlan } from './plans';

let ctx: ApiTestContext;
let lowKey: string;

beforeAll(async () => {
  ctx = await createApiTestContext();
  lowKey = await ctx.key(uid('viewer'), 'low');
});
afterAll(() => ctx?.close());

async function runToEnd(planId: string, key: string, inputs: Record<string, unknown> = {}): Promise<string> {
  const response = await ctx.call('POST', '/v1/intents', { task_descriptor: 'console api', plan_id: planId, inputs, wait: true }, key);
  expect(response.statusCode, response.body).toBe(202);
  return response.json().workflow_id as string;
}

describe('GET /v1/runs', () => {
  it('lists runs newest first, filtered by plan, state and time, only of plans the caller may run', async () => {
    const ok = await storePlan(ctx.services.records, { intent: uid('ok'), nodes: [{ id: 'a', op: 'noop' }] });
    const bad = await storePlan(ctx.services.records, { intent: uid('bad'), nodes: [{ id: 'a', op: 'fail' }] });
    const high = await storePlan(ctx.services.records, { intent: uid('high'), sensitivity: 'high', nodes: [{ id: 'a', op: 'noop' }] });
    const since = new Date().toISOString();
    const highKey = await ctx.key(uid('admin'), 'high');
    const [first, second, failed, secret] = await ctx.withWorker(async () => [
      await runToEnd(ok.id, lowKey), await runToEnd(ok.id, lowKey), await runToEnd(bad.id, lowKey), await runToEnd(high.id, highKey),
    ]);

    const ofOk = (await ctx.call('GET', `/v1/runs?plan_id=${ok.id}`, undefined, lowKey)).json();
    expect(ofOk.items.map((r: { workflow_id: string }) => r.workflow_id)).toEqual([second, first]);
    expect(ofOk.items[0]).toMatchObject({ plan_id: ok.id, intent: ok.payload.kind === 'plan_graph' ? ok.payload.intent : '', state: 'succeeded', error: null });
    expect(ofOk.items[0].latency_ms).toBeGreaterThan(0);

    const failedOnly = (await ctx.call('GET', `/v1/runs?state=failed&since=${encodeURIComponent(since)}`, undefined, lowKey)).json();
    expect(failedOnly.items.map((r: { workflow_id: string }) => r.workflow_id)).toEqual([failed]);
    expect(failedOnly.items[0].error).toMatchObject({ type: expect.any(String) });

    const all = (await ctx.call('GET', `/v1/runs?since=${encodeURIComponent(since)}`, undefined, lowKey)).json();
    expect(all.items.map((r: { workflow_id: string }) => r.workflow_id)).not.toContain(secret);
    expect((await ctx.call('GET', `/v1/runs?plan_id=${high.id}`, undefined, lowKey)).json().items).toEqual([]);
    expect((await ctx.call('GET', `/v1/runs?plan_id=${high.id}`, undefined, highKey)).json().items).toHaveLength(1);
    expect((await ctx.call('GET', `/v1/runs?plan_id=${ok.id}`)).json().items).toEqual([]); // anonymous: public plans only

    const page = (await ctx.call('GET', `/v1/runs?plan_id=${ok.id}&limit=1&before=${encodeURIComponent(ofOk.items[0].started_at)}`, undefined, lowKey)).json();
    expect(page.items.map((r: { workflow_id: string }) => r.workflow_id)).toEqual([first]);
  });

  it('pages by next_cursor through runs that started in the same microsecond, each exactly once', async () => {
    const plan = await storePlan(ctx.services.records, { intent: uid('ties'), nodes: [{ id: 'a', op: 'noop' }] });
    const ids = Array.from({ length: 5 }, (_, i) => `tie-${i}-${uid('w')}`);
    for (const id of ids) {
      await ctx.services.db.$client.query(
        `INSERT INTO plan_runs (workflow_id, run_id, plan_id, plan_revision, status, started_at) VALUES ($1, 'r', $2, 1, 'running', '2026-11-28T17:32:01.470123Z')`,
        [id, plan.id],
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Array<{ workflow_id: string }>; next_cursor: string | null } = (await ctx.call('GET', `/v1/runs?plan_id=${plan.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, undefined, lowKey)).json();
      seen.push(...page.items.map((r: { workflow_id: string }) => r.workflow_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].sort().reverse());
    const bad = await ctx.call('GET', `/v1/runs?cursor=not-a-cursor`, undefined, lowKey);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toContain('query.cursor');
  });

  it('refuses a bad filter with a 400 naming it', async () => {
    for (const [query, field] of [['state=exploded', 'query.state'], ['since=yesterday', 'query.since'], ['plan_id=nope', 'query.plan_id'], ['limit=0', 'query.limit'], ['colour=red', 'query']]) {
      const response = await ctx.call('GET', `/v1/runs?${query}`, undefined, lowKey);
      expect(response.statusCode, query).toBe(400);
      expect(errorOf(response).message).toContain(field);
    }
  });

  it('refuses, naming it, an instant Postgres cannot hold; the first and last years it may name still list', async () => {
    const instant = (at: string) => encodeURIComponent(at);
    for (const [query, field] of [
      [`since=${instant('0000-01-01T00:00:00Z')}`, 'query.since'],
      [`before=${instant('0000-01-01T00:00:00Z')}`, 'query.before'],
      [`since=${instant('2024-01-01T00:00:00+16:00')}`, 'query.since'],
      [`before=${instant('294277-01-01T00:00:00Z')}`, 'query.before'],
    ]) {
      const response = await ctx.call('GET', `/v1/runs?${query}`, undefined, lowKey);
      expect(response.statusCode, query).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'bad_request', details: { fields: [{ field }] } });
    }
    const wide = await ctx.call('GET', `/v1/runs?since=${instant('0001-01-01T00:00:00+15:59')}&before=${instant('9999-12-31T23:59:59.999999-15:59')}`, undefined, lowKey);
    expect(wide.statusCode, wide.body).toBe(200);
  });
});

describe('GET /v1/runs/:workflow_id/nodes(/:node_id)', () => {
  it('shows no one resolution of a map node\'s params: each item got its own', async () => {
    const plan = await storePlan(ctx.services.records, {
      intent: uid('map-resolve'),
      nodes: [{ id: 'm', op: 'echo', for_each: '{{inputs.names}}', params: { who: '{{item}}' } }],
      edges: [],
    });
    const workflowId = await ctx.withWorker(() => runToEnd(plan.id, lowKey, { names: ['Bo', 'Cy'] }));
    const m = (await ctx.call('GET', `/v1/runs/${workflowId}/nodes/m`, undefined, lowKey)).json();
    expect(m).toMatchObject({ state: 'succeeded', params: { who: '{{item}}' }, resolved_params: null });
  });

  it('answers the params as declared and as the executor resolved them; pending or hidden is honest', async () => {
    const plan = await storePlan(ctx.services.records, {
      intent: uid('resolve'),
      constraints: { failure_policy: 'continue' },
      nodes: [
        { id: 'a', op: 'echo', params: { who: '{{inputs.name}}' } },
        { id: 'b', op: 'echo', params: { greeting: 'hi {{nodes.a.output.who}}', whole: '{{nodes.a.output}}' } },
        { id: 'c', op: 'fail', params: {} },
        { id: 'd', op: 'echo', params: { after: '{{nodes.c.output}}' } },
      ],
      edges: [{ from: 'a', to: 'b', kind: 'data' }, { from: 'c', to: 'd', kind: 'data' }],
    });
    const workflowId = await ctx.withWorker(() => runToEnd(plan.id, lowKey, { name: 'Ada' }));
    const b = await ctx.call('GET', `/v1/runs/${workflowId}/nodes/b`, undefined, lowKey);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json()).toEqual({
      workflow_id: workflowId, node_id: 'b', op: 'echo', state: 'succeeded',
      params: { greeting: 'hi {{nodes.a.output.who}}', whole: '{{nodes.a.output}}' },
      resolved_params: { greeting: 'hi Ada', whole: { who: 'Ada' } },
      guards: {}, policy: null,
    });
    expect((await ctx.call('GET', `/v1/runs/${workflowId}/nodes/d`, undefined, lowKey)).json()).toMatchObject({ state: 'skipped', resolved_params: null });
    const missing = await ctx.call('GET', `/v1/runs/${workflowId}/nodes/zz`, undefined, lowKey);
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).message).toContain('no node zz');
    expect((await ctx.call('GET', `/v1/runs/${workflowId}/nodes/b`)).statusCode).toBe(404); // anonymous
    expect((await ctx.call('GET', `/v1/runs/${uid('nope')}/nodes/b`, undefined, lowKey)).statusCode).toBe(404);

    // Every node, in topological order, filtered and paged; bad paging is a 400 naming the field.
    const list = await ctx.call('GET', `/v1/runs/${workflowId}/nodes`, undefined, lowKey);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      workflow_id: workflowId, node_count: 4, matching: 4, offset: 0,
      nodes: [
        { node_id: 'a', op: 'echo', state: 'succeeded' }, { node_id: 'b', op: 'echo', state: 'succeeded' },
        { node_id: 'c', op: 'fail', state: 'failed' }, { node_id: 'd', op: 'echo', state: 'skipped' },
      ],
    });
    const failed = await ctx.call('GET', `/v1/runs/${workflowId}/nodes?state=failed&limit=1`, undefined, lowKey);
    expect(failed.json()).toMatchObject({ matching: 1, nodes: [{ node_id: 'c' }] });
    expect((await ctx.call('GET', `/v1/runs/${workflowId}/nodes?offset=3`, undefined, lowKey)).json()).toMatchObject({ offset: 3, nodes: [{ node_id: 'd' }] });
    const bad = await ctx.call('GET', `/v1/runs/${workflowId}/nodes?limit=0&state=done`, undefined, lowKey);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toMatch(/limit/);
    expect(JSON.stringify(bad.json())).toMatch(/state/);
    expect((await ctx.call('GET', `/v1/runs/${workflowId}/nodes`)).statusCode).toBe(404); // anonymous
  });
});

describe('whoami, episodes by id and the /ui shell', () => {
  it('GET /v1/whoami names the key’s principal and clearance, anonymous without a key', async () => {
    const name = uid('agent');
    const key = await ctx.key(name, 'medium', ['team-a']);
    expect((await ctx.call('GET', '/v1/whoami', undefined, key)).json()).toEqual({ name, authenticated: true, max_sensitivity: 'medium', scopes: ['team-a'] });
    expect((await ctx.call('GET', '/v1/whoami')).json()).toEqual({ name: 'anonymous', authenticated: false, max_sensitivity: 'public', scopes: null });
  });

  it('a malformed Authorization header is a 401 naming it, never an anonymous caller', async () => {
    const name = uid('agent');
    const key = await ctx.key(name, 'low');
    for (const authorization of [`Token ${key}`, key, 'Bearer ', 'Bearer', '', `Basic ${Buffer.from(`x:${key}`).toString('base64')}`]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(errorOf(response)).toEqual({ code: 'unauthenticated', message: 'the Authorization header must be "Bearer <key>"', details: { field: 'headers.authorization' } });
    }
    // The scheme is case-insensitive, and spaces around the key do not matter.
    const lower = await ctx.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: `bearer  ${key} ` } });
    expect(lower.json()).toMatchObject({ name, authenticated: true });
  });

  it('GET /v1/episodes/:id shows an episode under trust; a plan id is a 422', async () => {
    const stored = await ctx.call('POST', '/v1/episodes', { sensitivity: 'low', payload: { kind: 'episodic', outcome: 'success', tool_graph: [{ id: 't1', tool: 'search' }] } }, lowKey);
    expect(stored.statusCode, stored.body).toBe(201);
    const id = stored.json().id as string;
    expect((await ctx.call('GET', `/v1/episodes/${id}`, undefined, lowKey)).json()).toMatchObject({ redacted: false, record: { id, type: 'episodic' } });
    expect((await ctx.call('GET', `/v1/episodes/${id}`)).json()).toMatchObject({ redacted: true, record: { id } });
    const plan = await storePlan(ctx.services.records, { nodes: [{ id: 'a', op: 'noop' }] });
    const wrong = await ctx.call('GET', `/v1/episodes/${plan.id}`, undefined, lowKey);
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).code).toBe('not_an_episode');
  });

  it('serves the shells with a strict CSP and escaped subjects, the assets, and 404 for anything else', async () => {
    const shell = await ctx.app.inject({ method: 'GET', url: '/ui/runs/%3Cscript%3Ealert(1)%3C%2Fscript%3E' });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['content-security-policy']).toContain("script-src 'self'");
    expect(shell.body).not.toContain('<script>alert');
    expect(shell.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(shell.body).toContain('/ui/assets/run-page.js');
    expect((await ctx.app.inject({ method: 'GET', url: '/ui' })).headers.location).toBe('/ui/runs');
    for (const asset of ['/ui/assets/graph.js', '/ui/assets/console.css', '/ui/vendor/elk-worker.js']) {
      const response = await ctx.app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/(javascript|css)/);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/ui/assets/../../server.ts' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/ui/assets/nope.js' })).statusCode).toBe(404);
    // A page the console does not have is a page of the console saying so, its path escaped.
    const missing = await ctx.app.inject({ method: 'GET', url: '/ui/runz/%3Cb%3Ex?y=1' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.headers['content-security-policy']).toContain("script-src 'self'");
    expect(missing.body).toContain('No console page at <code>/ui/runz/%3Cb%3Ex</code>');
    expect(missing.body).toContain('<a href="/ui/runs">Runs</a>');
    // The API's own paths still answer JSON.
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/nope' })).json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
