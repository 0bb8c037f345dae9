/**
 * Input hygiene over real HTTP: every class of bad input is a 4xx in the one error shape and
 * stores nothing; unknown routes are 404; /docs is the OpenAPI document of the zod schemas.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';

let ctx: ApiTestContext;
beforeAll(async () => {
  ctx = await createApiTestContext({ API_BODY_LIMIT_BYTES: '4096' });
});
afterAll(() => ctx?.close());

const validEpisode = {
  payload: {
    kind: 'episodic',
    outcome: 'success',
    timeline: [{ t: '2024-01-01T00:00:00Z', event_kind: 'hygiene' }],
    tool_graph: [{ id: 'a', tool: 'noop' }],
  },
};

/** Table sizes, to prove a refused request stored nothing. */
const footprint = async () => ({
  records: await ctx.count('memory_records'),
  runs: await ctx.count('plan_runs'),
  audit: await ctx.count('audit_log'),
});

describe('bad input is refused with a 4xx and changes nothing', () => {
  const raw = (url: string, payload: string, contentType = 'application/json') =>
    ctx.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

  const cases: Array<[string, () => Promise<{ statusCode: number; json(): unknown }>, number, string, string?]> = [
    ['malformed JSON (intent)', () => raw('/v1/intents', '{"task_descriptor": "x", '), 400, 'bad_request', 'body'],
    ['malformed JSON (episode)', () => raw('/v1/episodes', '{"payload": {'), 400, 'bad_request', 'body'],
    ['empty JSON body (read as no body)', () => raw('/v1/episodes', ''), 400, 'bad_request', 'body.payload'],
    [
      'a __proto__ key',
      () => raw('/v1/episodes', JSON.stringify(validEpisode).replace('"payload":{', '"payload":{"__proto__":{"x":1},')),
      400,
      'bad_request',
      'body.payload.__proto__',
    ],
    [
      'a constructor.prototype key (intent inputs)',
      () => raw('/v1/intents', '{"task_descriptor": "x", "inputs": {"constructor": {"prototype": {"x": 1}}}}'),
      400,
      'bad_request',
      'body.inputs.constructor.prototype',
    ],
    ['not JSON at all', () => raw('/v1/intents', 'task=x', 'text/plain'), 400, 'bad_request'],
    ['wrong type', () => ctx.call('POST', '/v1/intents', { task_descriptor: 42, inputs: {} }), 400, 'bad_request', 'body.task_descriptor'],
    ['wrong nested type', () => ctx.call('POST', '/v1/intents', { task_descriptor: 'x', inputs: [] }), 400, 'bad_request', 'body.inputs'],
    ['out of range', () => ctx.call('POST', '/v1/intents', { task_descriptor: 'x', wait_timeout_ms: 10_000_000 }), 400, 'bad_request', 'body.wait_timeout_ms'],
    ['unknown field', () => ctx.call('POST', '/v1/intents', { task_descriptor: 'x', input: {} }), 400, 'bad_request', 'body.input'],
    ['unknown query parameter', () => ctx.call('GET', '/v1/plans?limt=5'), 400, 'bad_request', 'query.limt'],
    ['a query parameter on a route that takes none', () => ctx.call('GET', '/v1/stats?plan=x'), 400, 'bad_request', 'query.plan'],
    ['a body on a route that takes none', () => ctx.call('POST', '/v1/runs/plan-x/resume', { inputs: { n: 1 } }), 400, 'bad_request', 'body.inputs'],
    // Misspelt fields are refused wherever they are, never dropped: a dropped `max_sensitivty` would run with wider trust.
    ['misspelt trust field (intent)', () => ctx.call('POST', '/v1/intents', { task_descriptor: 'x', trust: { max_sensitivty: 'public' } }), 400, 'bad_request', 'body.trust.max_sensitivty'],
    ['misspelt envelope field (episode)', () => ctx.call('POST', '/v1/episodes', { ...validEpisode, sensitivty: 'high' }), 400, 'bad_request', 'body.sensitivty'],
    [
      'misspelt field of a tool call (episode)',
      () => ctx.call('POST', '/v1/episodes', { payload: { ...validEpisode.payload, tool_graph: [{ id: 'a', tool: 'noop', argz: { n: 1 } }] } }),
      400,
      'bad_request',
      'body.payload.tool_graph[0].argz',
    ],
    ['misspelt envelope field (plan)', async () => ctx.call('POST', '/v1/plans', { sensitivty: 'high', payload: {} }, await ctx.key('writer', 'high')), 400, 'bad_request', 'body.sensitivty'],
    [
      'unknown trust field (retrieve)',
      () => ctx.call('POST', '/v1/retrieve', { task_descriptor: 'x', trust: { max_sensitivity: 'public', authenticated: false, scope: 'a' } }),
      400,
      'bad_request',
      'body.trust.scope',
    ],
    ['misspelt field (reinforce)', async () => ctx.call('POST', `/v1/plans/${randomUUID()}/reinforce`, { gian: 1 }, await ctx.key('writer', 'high')), 400, 'bad_request', 'body.gian'],
    ['misspelt field (consolidation)', async () => ctx.call('POST', '/v1/consolidation/run', { pagesize: 1 }, await ctx.key('operator', 'high')), 400, 'bad_request', 'body.pagesize'],
    [
      'one plan named twice in a merge (a UUID in either case)',
      async () => {
        const id = randomUUID();
        return ctx.call('POST', '/v1/plans/merge', { sources: [{ id, expected_revision: 1 }, { id: id.toUpperCase(), expected_revision: 1 }], payload: {} }, await ctx.key('writer', 'high'));
      },
      400,
      'bad_request',
      'body.sources',
    ],
    ['an integer JSON would round (a 20-digit id)', () => raw('/v1/episodes', JSON.stringify(validEpisode).replace('"outcome"', '"environment":{"id":12345678901234567890},"outcome"')), 400, 'bad_request', 'body'],
    ['a record type other than the route’s', () => ctx.call('POST', '/v1/episodes', { ...validEpisode, type: 'plan_graph' }), 400, 'bad_request', 'body.type'],
    ['a NUL in a query value', () => ctx.call('GET', '/v1/plans?intent=greet%00x'), 400, 'bad_request', 'query.intent'],
    ['a hex page size, which Number() would read as 16', () => ctx.call('GET', '/v1/plans?limit=0x10'), 400, 'bad_request', 'query.limit'],
    ['a query value that is not UTF-8', () => ctx.call('GET', '/v1/plans?intent=caf%E9'), 400, 'bad_request', 'query.intent'],
    ['a JSON body labelled text/plain', () => raw('/v1/episodes', JSON.stringify(validEpisode), 'text/plain'), 400, 'bad_request', 'body'],
    // As a browser's bodiless fetch() sends it: read as no body, so the route answers (here: no such run).
    ['an empty text/plain body is no body', () => raw('/v1/runs/plan-x/resume', '', 'text/plain'), 404, 'not_found'],
    ['missing field (intent)', () => ctx.call('POST', '/v1/intents', { inputs: {} }), 400, 'bad_request', 'body.task_descriptor'],
    ['missing field (episode)', () => ctx.call('POST', '/v1/episodes', { payload: { kind: 'episodic' } }), 400, 'bad_request', 'body.payload.outcome'],
    ['invalid enum (episode)', () => ctx.call('POST', '/v1/episodes', { ...validEpisode, sensitivity: 'secret' }), 400, 'bad_request', 'body.sensitivity'],
    ['bad plan id', () => ctx.call('POST', '/v1/intents', { task_descriptor: 'x', plan_id: 'not-a-uuid' }), 400, 'bad_request', 'body.plan_id'],
    [
      'task over 4,000 characters (retrieve)',
      () => ctx.call('POST', '/v1/retrieve', { task_descriptor: 'x'.repeat(4001), trust: { max_sensitivity: 'public', authenticated: false } }),
      400,
      'bad_request',
      'body.task_descriptor',
    ],
    [
      'oversize body',
      () => ctx.call('POST', '/v1/episodes', { ...validEpisode, tags: Array.from({ length: 1000 }, (_, i) => `tag-${i}`) }),
      413,
      'payload_too_large',
    ],
    ['unknown route', () => ctx.call('GET', '/v1/nothing-here'), 404, 'not_found'],
    // Workflow ids plangraph makes reach 102 characters; Temporal allows 1,000.
    ['a 150-character workflow id is looked up, not refused', () => ctx.call('GET', `/v1/runs/plan-${'x'.repeat(145)}`), 404, 'not_found'],
    ['a path segment over 1,000 characters', () => ctx.call('GET', `/v1/runs/${'x'.repeat(1001)}`), 400, 'bad_request', 'url'],
    ['a URL that is not valid UTF-8', () => ctx.call('GET', '/v1/runs/%ED%A0%80'), 400, 'bad_request', 'url'],
    ['unknown method on a route', () => ctx.call('POST', '/v1/stats', {}), 405, 'method_not_allowed'],
    ['unknown API key', () => ctx.call('POST', '/v1/episodes', validEpisode, 'pg_wrong'), 401, 'unauthenticated'],
  ];

  it.each(cases)('%s', async (_name, send, status, code, field) => {
    const before = await footprint();
    const response = await send();
    expect(response.statusCode).toBe(status);
    const error = errorOf(response as never);
    expect(error.code).toBe(code);
    if (field) {
      const fields = (error.details.fields as Array<{ field: string }>).map((f) => f.field);
      expect(fields).toContain(field);
      expect(error.message).toContain(field);
    }
    expect(await footprint()).toEqual(before);
  });

  it('a method the path has no route for is a 405 listing the methods it has, for a path with a parameter too', async () => {
    const stats = await ctx.call('POST', '/v1/stats', {});
    expect(stats.headers.allow).toBe('GET, HEAD');
    const cancel = await ctx.call('GET', '/v1/runs/plan-x/cancel');
    expect(cancel.statusCode).toBe(405);
    expect(cancel.headers.allow).toBe('POST');
    expect(errorOf(cancel as never)).toMatchObject({ code: 'method_not_allowed', details: { allowed: ['POST'] } });
    expect((await ctx.call('GET', '/v1/runs/plan-x/no-such-action')).statusCode).toBe(404);
  });

  it('the same episode, well-formed, is stored (the cases above fail for their defect alone)', async () => {
    const before = await footprint();
    const key = await ctx.key('episode-writer', 'low');
    const response = await ctx.call('POST', '/v1/episodes', validEpisode, key);
    expect(response.statusCode).toBe(201);
    // A writer may repeat the record's type, as a memory record carries one.
    const typed = await ctx.call('POST', '/v1/episodes', { ...validEpisode, type: 'episodic' }, key);
    expect(typed.statusCode, typed.body).toBe(201);
    expect(typed.json()).toMatchObject({ type: 'episodic' });
    expect((await footprint()).records).toBe(before.records + 2);
  });
});

describe('GET /docs', () => {
  it('is an OpenAPI 3.1 document generated from the routes’ zod schemas', async () => {
    const response = await ctx.call('GET', '/docs');
    expect(response.statusCode).toBe(200);
    const doc = response.json() as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> }; responses: Record<string, { content?: Record<string, { schema: { properties: Record<string, unknown> } }> }>; parameters: Array<{ name: string; in: string }> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const intent = doc.paths['/v1/intents']!.post!;
    const body = intent.requestBody!.content['application/json']!.schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['task_descriptor', 'inputs', 'trust', 'plan_id', 'idempotency_key', 'wait']));
    expect(body.required).toContain('task_descriptor');
    expect(Object.keys(intent.responses['202']!.content!['application/json']!.schema.properties)).toEqual(
      expect.arrayContaining(['workflow_id', 'run_id', 'plan_id', 'selection', 'ui_url']),
    );
    const run = doc.paths['/v1/runs/{workflow_id}']!.get!;
    expect(run.parameters).toEqual([expect.objectContaining({ name: 'workflow_id', in: 'path' })]);
    expect(Object.keys(run.responses['200']!.content!['application/json']!.schema.properties)).toEqual(
      expect.arrayContaining(['state', 'status', 'result', 'record']),
    );
    // Query parameters are listed, each with its schema (a client generator needs them to page).
    expect(doc.paths['/v1/runs']!.get!.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:plan_id', 'query:state', 'query:since', 'query:before', 'query:limit', 'query:cursor']);
    expect(doc.paths['/v1/runs/{workflow_id}/nodes']!.get!.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:workflow_id', 'query:state', 'query:offset', 'query:limit']);
        expect(doc.paths['/v1/runs/{workflow_id}/cancel']?.post).toBeDefined();
    const approve = doc.paths['/v1/runs/{workflow_id}/approvals/{node_id}']!.post!;
    expect(Object.keys(approve.requestBody!.content['application/json']!.schema.properties!)).toEqual(['decision', 'comment']);
    expect(Object.keys(approve.responses['200']!.content!['application/json']!.schema.properties)).toEqual(expect.arrayContaining(['approved', 'by', 'at']));
    expect(doc.paths['/v1/runs/{workflow_id}/approvals']?.get).toBeDefined();
    expect(Object.keys(doc.paths['/v1/runs/{workflow_id}/resume']!.post!.responses['201']!.content!['application/json']!.schema.properties)).toEqual(
      expect.arrayContaining(['workflow_id', 'resumed_from', 'reused', 'rerun']),
    );
    // An episode's retry under the same idempotency key answers 200, and the document says so.
    expect(Object.keys(doc.paths['/v1/episodes']!.post!.responses).sort()).toEqual(['200', '201', 'default']);
    expect(doc.paths['/v1/stats']?.get).toBeDefined();
    expect(doc.paths['/metrics']?.get).toBeDefined();
  });
});
