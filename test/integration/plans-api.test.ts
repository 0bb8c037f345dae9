/** The plan and retrieval routes through the real API (app.inject), Postgres and services. */
import { CALIBRATED_THRESHOLD } from '../../src/domain/selection';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/api/server';
import { createServices, type Services } from '../../src/services';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
let services: Services;
let app: FastifyInstance;
let mediumKey: string;
const auth = () => ({ authorization: `Bearer ${mediumKey}` });

beforeAll(async () => {
  ctx = await createTestContext();
  services = await createServices(ctx.config);
  app = await buildApi(services);
  mediumKey = (await services.apiKeys.create(uid('alice'), 'medium')).key;
});
afterAll(async () => {
  await app?.close();
  await services?.close();
  await ctx?.close();
});

const payload = (intent = uid('intent')) => ({
  intent,
  plan_id: uid('plan'),
  nodes: [
    { id: 'fetch', op: 'echo', params: { v: 1 } },
    { id: 'pick', op: 'json_pick', params: { from: '{{nodes.fetch.output}}' } },
    { id: 'done', op: 'noop' },
  ],
  edges: [
    { from: 'fetch', to: 'pick', kind: 'data' },
    { from: 'pick', to: 'done', kind: 'control' },
  ],
});

async function createPlan(body: Record<string, unknown> = {}, headers = auth()) {
  const res = await app.inject({ method: 'POST', url: '/v1/plans', headers, payload: { payload: payload(), ...body } });
  expect(res.statusCode).toBe(201);
  return res.json().record as { id: string; revision: number; payload: { intent: string } };
}

describe('happy paths', () => {
  it('authors, shows with live metrics and revision, lists by intent with pagination', async () => {
    const intent = uid('listed');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createPlan({ payload: { ...payload(intent), nodes: payload().nodes.slice(0, i + 1), edges: payload().edges.slice(0, i) } })).id);
    const shown = await app.inject({ method: 'GET', url: `/v1/plans/${ids[0]}`, headers: auth() });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ redacted: false, record: { id: ids[0], revision: 1, status: 'active', payload: { metrics: { execution_count: 0 } } } });

    const page1 = await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}&limit=2`, headers: auth() });
    const body1 = page1.json();
    expect(body1.items.map((i: { record: { id: string } }) => i.record.id)).toEqual([ids[2], ids[1]]);
    const page2 = await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}&limit=2&cursor=${body1.next_cursor}`, headers: auth() });
    expect(page2.json()).toEqual({ items: [expect.objectContaining({ record: expect.objectContaining({ id: ids[0] }) })], next_cursor: null });
  });

  it('filters the list by status', async () => {
    const intent = uid('status');
    const plan = await createPlan({ payload: payload(intent) });
    await app.inject({ method: 'POST', url: `/v1/plans/${plan.id}/retract`, headers: auth(), payload: { expected_revision: 1 } });
    const active = await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}&status=active`, headers: auth() });
    const retracted = await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}&status=retracted`, headers: auth() });
    expect(active.json().items).toHaveLength(0);
    expect(retracted.json().items.map((i: { record: { id: string } }) => i.record.id)).toEqual([plan.id]);
  });

  it('draws the plan as Mermaid: id and op on nodes, edge kinds on arrows, control dotted', async () => {
    const plan = await createPlan();
    const res = await app.inject({ method: 'GET', url: `/v1/plans/${plan.id}/diagram`, headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe(
      ['flowchart TD', '  n0["done<br/>noop"]', '  n1["fetch<br/>echo"]', '  n2["pick<br/>json_pick"]', '  n1 -->|data| n2', '  n2 -.->|control| n0', ''].join('\n'),
    );
    const json = await app.inject({ method: 'GET', url: `/v1/plans/${plan.id}/diagram?format=json`, headers: auth() });
    expect(json.json()).toEqual({ mermaid: res.body });
  });

  it('reinforces, supersedes, forks, contests and merges over HTTP', async () => {
    const plan = await createPlan();
    const reinforced = await app.inject({ method: 'POST', url: `/v1/plans/${plan.id}/reinforce`, headers: auth(), payload: { reason: 'worked' } });
    expect(reinforced.statusCode).toBe(200);
    expect(reinforced.json()).toMatchObject({ id: plan.id, salience: 0.1, revision: 1 });

    const superseded = await app.inject({ method: 'POST', url: `/v1/plans/${plan.id}/supersede`, headers: auth(), payload: { expected_revision: 1, payload: payload() } });
    expect(superseded.statusCode).toBe(201);
    const successor = superseded.json().record;
    expect(superseded.json().affected).toEqual([{ id: plan.id, status: 'superseded', revision: 2 }]);

    const forked = await app.inject({ method: 'POST', url: `/v1/plans/${successor.id}/fork`, headers: auth(), payload: { expected_revision: 1, payload: payload() } });
    expect(forked.statusCode).toBe(201);
    const contested = await app.inject({ method: 'POST', url: `/v1/plans/${successor.id}/contest`, headers: auth(), payload: { expected_revision: 1, reason: 'flaky' } });
    expect(contested.statusCode).toBe(200);
    expect(contested.json().record).toMatchObject({ revision: 2, tags: ['contested'] });
    const merged = await app.inject({
      method: 'POST',
      url: '/v1/plans/merge',
      headers: auth(),
      payload: { sources: [{ id: successor.id, expected_revision: 2 }, { id: forked.json().record.id, expected_revision: 1 }], payload: payload() },
    });
    expect(merged.statusCode).toBe(201);
    expect(merged.json().affected.map((a: { status: string }) => a.status)).toEqual(['merged', 'merged']);
  });

  it('retrieves under the caller trust', async () => {
    const intent = `restore the ${uid('archive')} mailbox`;
    const scope = uid('scope');
    const plan = await createPlan({ payload: payload(intent), scope, sensitivity: 'medium' });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/retrieve',
      headers: auth(),
      payload: { task_descriptor: intent, limit: 100, trust: { max_sensitivity: 'medium', authenticated: true, scopes: [scope] } },
    });
    expect(res.statusCode).toBe(200);
    // Other files share this database: unscoped plans may outrank ours, other scopes never show.
    const candidates = res.json().candidates as Array<{ redacted: boolean; record: { id: string; scope: string }; signals: { cosine?: number; lexical?: number } }>;
    expect(candidates.every((c) => c.record.scope === '' || c.record.scope === scope)).toBe(true);
    const mine = candidates.find((c) => c.record.id === plan.id);
    expect(mine).toMatchObject({ redacted: false });
    // The plan's vector is of its whole document (intent, ops, …), so the intent alone is close, not identical.
    expect(mine?.signals.cosine).toBeGreaterThan(0.8);
    expect(mine?.signals.lexical).toBeGreaterThan(0);
    expect(res.json().selection).toEqual(expect.objectContaining({ threshold: CALIBRATED_THRESHOLD, mode: 'calibrated' }));
  });
});

describe('error paths', () => {
  it('422 for an invalid plan, listing every issue with its code and path', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/plans',
      headers: auth(),
      payload: { payload: { intent: 'x', plan_id: 'p', nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'noop' }], edges: [{ from: 'a', to: 'b', kind: 'control' }, { from: 'b', to: 'a', kind: 'control' }, { from: 'a', to: 'q', kind: 'data' }] } },
    });
    expect(res.statusCode).toBe(422);
    const issues = res.json().error.details.issues as Array<{ code: string; path: string }>;
    expect(issues.map((i) => i.code).sort()).toEqual(['cycle', 'dangling_edge']);
    expect(issues.find((i) => i.code === 'dangling_edge')!.path).toBe('edges[2].to');
  });

  it('422 invalid_execution for a local node that could run long, naming node and path', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/plans',
      headers: auth(),
      payload: { payload: { intent: 'x', plan_id: 'p-local', nodes: [{ id: 'wait', op: 'sleep', params: { ms: 60000 }, policy: { execution: 'local', start_to_close_timeout: '10m' } }] } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.issues).toEqual([
      expect.objectContaining({ code: 'invalid_execution', path: 'nodes[0].policy.execution', message: expect.stringContaining('node "wait" cannot run locally') }),
    ]);
  });

  it('422 too_many_nodes for a plan too large for the one history its approval node needs; nothing stored', async () => {
    const intent = uid('huge-approval');
    const nodes = [...Array.from({ length: 8_000 }, (_, i) => ({ id: `n${i}`, op: 'noop' })), { id: 'ok', op: 'approval', params: { prompt: 'ship?' } }];
    const res = await app.inject({ method: 'POST', url: '/v1/plans', headers: auth(), payload: { payload: { intent, plan_id: uid('p-huge'), nodes } } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'invalid_plan',
      details: { issues: [{ code: 'too_many_nodes', path: 'nodes', message: expect.stringContaining('8001 nodes and must run in one workflow history (node "ok" is an approval node)') }] },
    });
    expect((await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}`, headers: auth() })).json().items).toEqual([]);
  });

  it('422 invalid_schema naming each misspelt field of the plan, wherever it is (never dropped); nothing stored', async () => {
    const intent = uid('misspelt');
    const plan = payload(intent);
    const misspelt = {
      ...plan,
      edgs: [],
      nodes: plan.nodes.map((node, i) => (i === 0 ? { ...node, param: { x: 1 }, policy: { retries: 5 } } : node)),
    };
    const res = await app.inject({ method: 'POST', url: '/v1/plans', headers: auth(), payload: { payload: misspelt } });
    expect(res.statusCode).toBe(422);
    const paths = (res.json().error.details.issues as Array<{ code: string; path: string }>).map((i) => `${i.code} ${i.path}`).sort();
    expect(paths).toEqual(['invalid_schema edgs', 'invalid_schema nodes[0].param', 'invalid_schema nodes[0].policy.retries']);
    expect((await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}`, headers: auth() })).json().items).toEqual([]);
  });

  it('422 invalid_schema for an inputs_schema that is not a valid JSON Schema, naming the path and Ajv reason; nothing stored', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ type: 'objekt' }, 'inputs_schema.type', /must be equal to one of the allowed values/],
      [{ required: 'name' }, 'inputs_schema.required', /must be array/],
      [{ properties: { n: { type: 'string', pattern: '(' } } }, 'inputs_schema', /Invalid regular expression/],
      [{ properties: { n: { $ref: '#/nope' } } }, 'inputs_schema', /can't resolve reference #\/nope/],
      [{ minLength: -1 }, 'inputs_schema.minLength', /must be >= 0/],
    ];
    for (const [inputs_schema, path, reason] of cases) {
      const intent = uid('bad-schema');
      const res = await app.inject({ method: 'POST', url: '/v1/plans', headers: auth(), payload: { payload: { ...payload(intent), inputs_schema } } });
      expect(res.statusCode, path).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'invalid_plan', details: { issues: [{ code: 'invalid_schema', path, message: expect.stringMatching(reason) }] } });
      expect((await app.inject({ method: 'GET', url: `/v1/plans?intent=${intent}`, headers: auth() })).json().items).toEqual([]);
    }
    // Every write checks it: a supersede too, leaving the plan as it was.
    const plan = await createPlan();
    const superseded = await app.inject({
      method: 'POST',
      url: `/v1/plans/${plan.id}/supersede`,
      headers: auth(),
      payload: { expected_revision: 1, payload: { ...payload(), inputs_schema: { type: 'objekt' } } },
    });
    expect(superseded.statusCode).toBe(422);
    expect(superseded.json().error.details.issues).toEqual([expect.objectContaining({ code: 'invalid_schema', path: 'inputs_schema.type' })]);
    expect((await app.inject({ method: 'GET', url: `/v1/plans/${plan.id}`, headers: auth() })).json().record).toMatchObject({ status: 'active', revision: 1 });
  });

  it('400 naming query.cursor for a cursor this list never answered, or whose instant Postgres cannot hold', async () => {
    const cursor = (value: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString('base64'));
    const id = '00000000-0000-4000-8000-0000000000aa';
    const bad = ['not-a-cursor', cursor(['garbage', id]), cursor(['0000-01-01 00:00:00+00', id]), cursor(['294277-01-01 00:00:00+00', id]), cursor(['2024-01-01 00:00:00+00', 'nope']), cursor({})];
    for (const value of bad) {
      const res = await app.inject({ method: 'GET', url: `/v1/plans?cursor=${value}`, headers: auth() });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('query.cursor'), details: { fields: [{ field: 'query.cursor' }] } });
    }
    for (const at of ['0001-01-01 00:00:00+00', '9999-12-31 23:59:59.999999+00', '2024-01-01 00:00:00+05:30']) {
      const res = await app.inject({ method: 'GET', url: `/v1/plans?intent=${uid('none')}&cursor=${cursor([at, id])}`, headers: auth() });
      expect(res.statusCode, at).toBe(200);
    }
  });

  it('404 for an unknown plan; 422 not_a_plan for an episode', async () => {
    expect((await app.inject({ method: 'GET', url: '/v1/plans/00000000-0000-4000-8000-0000000000aa', headers: auth() })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/v1/plans/not-a-uuid', headers: auth() })).statusCode).toBe(404);
    const episode = await services.records.create({ type: 'episodic', sensitivity: 'public', confidence: 1, payload: { kind: 'episodic', timeline: [], tool_graph: [], outcome: 'success' } });
    for (const [method, url, body] of [
      ['GET', `/v1/plans/${episode.id}`, undefined],
      ['POST', `/v1/plans/${episode.id}/reinforce`, {}],
      ['POST', `/v1/plans/${episode.id}/retract`, { expected_revision: 1 }],
    ] as const) {
      const res = await app.inject({ method, url, headers: auth(), ...(body ? { payload: body } : {}) });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.code).toBe('not_a_plan');
    }
    const res = await app.inject({ method: 'GET', url: `/v1/plans/${episode.id}`, headers: auth() });
    expect(res.json().error.message).toBe(`record ${episode.id} is an episodic, not a plan graph`);
  });

  it('409 for reinforcing a plan that is no longer active: plan_retracted, or conflict naming the successor; nothing changes', async () => {
    const reinforce = (id: string) => app.inject({ method: 'POST', url: `/v1/plans/${id}/reinforce`, headers: auth(), payload: { reason: 'worked', task_descriptor: uid('task') } });
    const unchanged = async (id: string, status: string) => {
      const shown = await app.inject({ method: 'GET', url: `/v1/plans/${id}`, headers: auth() });
      expect(shown.json().record).toMatchObject({ status, salience: 0 });
      const actions = (await services.records.audit(id)).map((a) => a.action);
      expect(actions).not.toContain('reinforce');
      expect(actions).not.toContain('learn_alias');
    };

    const retracted = await createPlan();
    expect((await app.inject({ method: 'POST', url: `/v1/plans/${retracted.id}/retract`, headers: auth(), payload: { expected_revision: 1 } })).statusCode).toBe(200);
    const refused = await reinforce(retracted.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'plan_retracted', details: { id: retracted.id, status: 'retracted' } });
    await unchanged(retracted.id, 'retracted');

    const old = await createPlan();
    const superseded = await app.inject({ method: 'POST', url: `/v1/plans/${old.id}/supersede`, headers: auth(), payload: { expected_revision: 1, payload: payload() } });
    expect(superseded.statusCode).toBe(201);
    const stale = await reinforce(old.id);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'conflict', details: { id: old.id, status: 'superseded', successor_id: superseded.json().record.id } });
    await unchanged(old.id, 'superseded');

    const [a, b] = [await createPlan(), await createPlan()];
    const merged = await app.inject({
      method: 'POST',
      url: '/v1/plans/merge',
      headers: auth(),
      payload: { sources: [{ id: a.id, expected_revision: 1 }, { id: b.id, expected_revision: 1 }], payload: payload() },
    });
    expect(merged.statusCode).toBe(201);
    const gone = await reinforce(a.id);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error).toMatchObject({ code: 'conflict', details: { status: 'merged', successor_id: merged.json().record.id } });
    await unchanged(a.id, 'merged');
  });

  it('409 naming the current revision when two writers race', async () => {
    const plan = await createPlan();
    const [a, b] = await Promise.all(
      ['first', 'second'].map((reason) => app.inject({ method: 'POST', url: `/v1/plans/${plan.id}/contest`, headers: auth(), payload: { expected_revision: 1, reason } })),
    );
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    const lost = [a!, b!].find((r) => r.statusCode === 409)!;
    expect(lost.json().error).toMatchObject({ code: 'conflict', details: { current_revision: 2, expected_revision: 1 } });
  });

  it('400 when retrieve has no trust context', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/retrieve', headers: auth(), payload: { task_descriptor: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields[0].field).toBe('body.trust');
  });
});

describe('security', () => {
  it('403 when the body trust tries to widen the principal', async () => {
    const wider = await app.inject({ method: 'POST', url: '/v1/retrieve', headers: auth(), payload: { task_descriptor: 'x', trust: { max_sensitivity: 'high', authenticated: true } } });
    expect(wider.statusCode).toBe(403);
    const anonymous = await app.inject({ method: 'POST', url: '/v1/retrieve', payload: { task_descriptor: 'x', trust: { max_sensitivity: 'public', authenticated: true } } });
    expect(anonymous.statusCode).toBe(403);
  });

  it('one level above the clearance is redacted, two levels above is 404, and neither can be written', async () => {
    const tooHigh = await app.inject({ method: 'POST', url: '/v1/plans', headers: auth(), payload: { payload: payload(), sensitivity: 'high' } });
    expect(tooHigh.statusCode).toBe(403); // a medium key cannot create a high plan
    const stored = await services.revisions.create({ payload: payload(), sensitivity: 'high' }, { actor: 'admin' });
    const hyper = await services.revisions.create({ payload: payload(), sensitivity: 'hyper' }, { actor: 'admin' });
    const shown = await app.inject({ method: 'GET', url: `/v1/plans/${stored.record.id}`, headers: auth() });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().redacted).toBe(true);
    expect(Object.keys(shown.json().record).sort()).toEqual(['confidence', 'created_at', 'id', 'last_reinforced_at', 'scope', 'sensitivity', 'tags', 'type', 'updated_at']);
    expect((await app.inject({ method: 'GET', url: `/v1/plans/${stored.record.id}/diagram`, headers: auth() })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/v1/plans/${stored.record.id}/retract`, headers: auth(), payload: { expected_revision: 1 } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/v1/plans/${stored.record.id}/reinforce`, headers: auth(), payload: {} })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/v1/plans/${hyper.record.id}`, headers: auth() })).statusCode).toBe(404);
    // Anonymous callers see public only: the medium plan is invisible to them.
    const mine = await createPlan({ sensitivity: 'medium' });
    expect((await app.inject({ method: 'GET', url: `/v1/plans/${mine.id}` })).statusCode).toBe(404);
  });
});
