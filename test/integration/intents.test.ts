/**
 * POST /v1/intents and the run routes over real HTTP (app.inject), a real worker, Temporal and
 * Postgres: selection, idempotency, needs_more, trust, waiting and cancelling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALIBRATED_THRESHOLD } from '../../src/domain/selection';
import type { IntentResponse, RunView } from '../../src/intents/schemas';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';
import { runCli } from './cli-process';
import { until } from './executor-helpers';
import { uid } from './harness';
import { storePlan as storeTestPlan, type PlanSpec } from './plans';
import { RESEARCH_INPUTS_SCHEMA, RESEARCH_PHRASINGS } from '../fixtures/research-plan';

let ctx: ApiTestContext;
beforeAll(async () => {
  ctx = await createApiTestContext();
});
afterAll(() => ctx?.close());

type Spec = Partial<PlanSpec> & { scope: string };

/** Stores a plan (embedded by its intent) in a scope of the test's own: a→b echo with a data edge. */
function storePlan(spec: Spec) {
  return storeTestPlan(ctx.services.records, {
    intent: `intent ${spec.scope}`,
    nodes: [
      { id: 'a', op: 'echo', params: { value: '{{inputs.word}}' } },
      { id: 'b', op: 'echo', params: { upstream: '{{nodes.a.output}}' } },
    ],
    edges: [{ from: 'a', to: 'b', kind: 'data' }],
    ...spec,
  });
}

/** Polls GET /v1/runs/:id until the run leaves `running` (bounded by a deadline). */
async function settled(workflowId: string, apiKey?: string): Promise<RunView> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await ctx.call('GET', `/v1/runs/${workflowId}`, undefined, apiKey);
    expect(response.statusCode).toBe(200);
    const view = response.json() as RunView;
    if (view.state !== 'running') return view;
    if (Date.now() > deadline) throw new Error(`run ${workflowId} still running`);
    await ctx.services.temporal.client.workflow.getHandle(workflowId).result().catch(() => undefined);
  }
}

const planRunsOf = async (planId: string) =>
  (await ctx.services.db.$client.query<{ workflow_id: string; status: string }>('SELECT workflow_id, status FROM plan_runs WHERE plan_id = $1', [planId])).rows;

/** The API's `plangraph_selection_decisions_total` samples by decision. */
async function selectionDecisions(): Promise<Record<string, number>> {
  const text = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
  return Object.fromEntries([...text.matchAll(/^plangraph_selection_decisions_total\{decision="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

describe('POST /v1/intents', () => {
  it('runs the confident pick: 202 with ids and a UI link, then the run, its result and the plan metrics', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `greet the user ${scope}` });
    const key = await ctx.key(uid('agent'), 'low');
    const result = await ctx.withWorker(async () => {
      const response = await ctx.call('POST', '/v1/intents', { task_descriptor: `greet the user ${scope}`, inputs: { word: 'hi' }, trust: { scopes: [scope] } }, key);
      expect(response.statusCode).toBe(202);
      const body = response.json() as IntentResponse;
      expect(body).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval', existing: false, selection: { needs_more: false, threshold: CALIBRATED_THRESHOLD, mode: 'calibrated' } });
      expect(body.selection!.confidence).toBeGreaterThanOrEqual(CALIBRATED_THRESHOLD);
      expect(body.ui_url).toBe(`http://127.0.0.1:8233/namespaces/default/workflows/${body.workflow_id}/${body.run_id}`);
      return { body, view: await settled(body.workflow_id, key) };
    });
    expect(result.view).toMatchObject({ workflow_id: result.body.workflow_id, run_id: result.body.run_id, plan_id: plan.id, state: 'succeeded' });
    expect(result.view.result?.nodes.map((n) => [n.id, n.state])).toEqual([
      ['a', 'succeeded'],
      ['b', 'succeeded'],
    ]);
    expect(result.view.record).toMatchObject({ workflow_id: result.body.workflow_id, status: 'succeeded', plan_id: plan.id });
    const stored = await ctx.services.records.get(plan.id);
    expect(stored?.payload.kind === 'plan_graph' && stored.payload.metrics.execution_count).toBe(1);
  });

  it('with wait: answers once the run is done and includes every node’s output', async () => {
    const scope = uid('s');
    await storePlan({ scope, intent: `shout ${scope}`, inputs_schema: { type: 'object', required: ['word'] } });
    const response = await ctx.withWorker(() =>
      ctx.call('POST', '/v1/intents', { task_descriptor: `shout ${scope}`, inputs: { word: 'hey' }, trust: { scopes: [scope] }, wait: true }),
    );
    // Anonymous callers see public records only: the low plan is invisible to them.
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).code).toBe('needs_more');

    const key = await ctx.key(uid('agent'), 'low');
    const waited = await ctx.withWorker(() =>
      ctx.call('POST', '/v1/intents', { task_descriptor: `shout ${scope}`, inputs: { word: 'hey' }, trust: { scopes: [scope] }, wait: true }, key),
    );
    expect(waited.statusCode).toBe(202);
    const body = waited.json() as IntentResponse;
    expect(body.run?.state).toBe('succeeded');
    expect(body.run?.result?.nodes.find((n) => n.id === 'a')?.output).toEqual({ value: 'hey' });
  });

  it('refuses inputs that do not match the plan’s inputs_schema before starting anything (422)', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `needs a word ${scope}`, inputs_schema: { type: 'object', required: ['word'] } });
    const key = await ctx.key(uid('agent'), 'low');
    const before = await selectionDecisions();
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: `needs a word ${scope}`, inputs: {}, trust: { scopes: [scope] } }, key);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).code).toBe('invalid_inputs');
    expect(errorOf(response).message).toMatch(/^run inputs do not match the plan's inputs_schema: inputs: must have required property 'word' \(plan /);
    // Selection picked the plan, but nothing ran: counted as refused, not as an auto-run.
    expect(await selectionDecisions()).toEqual({ ...before, refused: (before.refused ?? 0) + 1 });
    // The caller asked in its own words: the answer names the plan selection picked and its schema.
    expect(errorOf(response).details).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval', inputs_schema: { required: ['word'] } });
    expect(errorOf(response).details).not.toHaveProperty('suggested_inputs');
    expect(await planRunsOf(plan.id)).toEqual([]);
  });

  it('offers back a missing input the task names, shaped like the learned examples, and still starts nothing', async () => {
    const scope = uid('s');
    const inputs_schema = { type: 'object', required: ['ticket_id'], properties: { ticket_id: { type: 'string', examples: ['T-103', 'T-100'] } } };
    const plan = await storePlan({ scope, intent: `refund ticket ${scope}`, inputs_schema });
    const key = await ctx.key(uid('agent'), 'low');
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: `refund ticket ${scope}: T-2041, double charge`, trust: { scopes: [scope] } }, key);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).message).toMatch(/the task names ticket_id=T-2041: send it in inputs$/);
    expect(errorOf(response).details).toMatchObject({ plan_id: plan.id, suggested_inputs: { ticket_id: 'T-2041' }, missing_inputs: [] });
    expect(await planRunsOf(plan.id)).toEqual([]);
  });

  it('with the suggestion, names the required inputs the task does not (an input with a default is not one of them)', async () => {
    const scope = uid('s');
    const inputs_schema = {
      type: 'object',
      required: ['ticket_id', 'reason', 'queue'],
      properties: {
        ticket_id: { type: 'string', examples: ['T-103', 'T-100'] },
        reason: { type: 'string', examples: ['duplicate charge'] },
        queue: { type: 'string', examples: ['billing'], default: 'billing' },
      },
    };
    const plan = await storePlan({ scope, intent: `reimburse invoice ${scope}`, inputs_schema });
    const key = await ctx.key(uid('agent'), 'low');
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: `reimburse invoice ${scope}: T-2041`, trust: { scopes: [scope] } }, key);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).message).toMatch(/the task names ticket_id=T-2041: send it in inputs; it does not name reason, needed too$/);
    expect(errorOf(response).details).toMatchObject({ suggested_inputs: { ticket_id: 'T-2041' }, missing_inputs: ['reason'] });
    // From the CLI (which sees every plan: the words are this plan's alone): the command to run again, and what it still needs (never a placeholder value in the command).
    const cli = await runCli(ctx, 'run', '--task', `reimburse invoice ${scope}: T-2041`).catch((e: { stderr: string }) => e);
    expect((cli as { stderr: string }).stderr).toContain(`run again with, adding --input reason=…: plangraph run --task 'reimburse invoice ${scope}: T-2041' --input ticket_id=T-2041`);
    expect(await planRunsOf(plan.id)).toEqual([]);
  });

  it('never runs an input’s default when the task names another value for it; sent, or the default named, it runs', async () => {
    const scope = uid('s');
    const inputs_schema = { type: 'object', required: [], properties: { to: { type: 'string', examples: ['team@example.com'], default: 'team@example.com' } } };
    const nodes = [
      { id: 'a', op: 'echo', params: { value: '{{inputs.to}}' } },
      { id: 'b', op: 'echo', params: { upstream: '{{nodes.a.output}}' } },
    ];
    const plan = await storePlan({ scope, intent: `mail the digest ${scope}`, inputs_schema, nodes });
    const key = await ctx.key(uid('agent'), 'low');
    const task = `mail the digest ${scope} to eng-all@example.com`;
    // Named by plan_id, so the check does not depend on what else this file's store holds; retrieval's pick is checked the same way.
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: task, plan_id: plan.id, trust: { scopes: [scope] } }, key);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).code).toBe('invalid_inputs');
    expect(errorOf(response).message).toMatch(/^the task names to=eng-all@example.com \(default "team@example.com"\), but inputs leave it to the default/);
    expect(errorOf(response).details).toMatchObject({ plan_id: plan.id, selected_by: 'plan_id', suggested_inputs: { to: 'eng-all@example.com' } });
    expect(await planRunsOf(plan.id)).toEqual([]);

    const output = async (body: Record<string, unknown>) => {
      const answer = await ctx.withWorker(() => ctx.call('POST', '/v1/intents', { ...body, plan_id: plan.id, trust: { scopes: [scope] }, wait: true }, key));
      expect(answer.statusCode).toBe(202);
      return (answer.json() as IntentResponse).run?.result?.nodes.find((n) => n.id === 'a')?.output;
    };
    expect(await output({ task_descriptor: task, inputs: { to: 'eng-all@example.com' } })).toEqual({ value: 'eng-all@example.com' });
    expect(await output({ task_descriptor: `mail the digest ${scope} to team@example.com` })).toEqual({ value: 'team@example.com' });
  });

  it('never runs an input the caller gave one value while the task names another; the two agreeing, it runs', async () => {
    const scope = uid('s');
    const inputs_schema = {
      type: 'object',
      required: ['ticket', 'channel'],
      properties: { ticket: { type: 'string', examples: ['T-4411'] }, channel: { type: 'string', examples: ['#support-escalations'] } },
    };
    const nodes = [
      { id: 'a', op: 'echo', params: { ticket: '{{inputs.ticket}}', channel: '{{inputs.channel}}' } },
      { id: 'b', op: 'echo', params: { upstream: '{{nodes.a.output}}' } },
    ];
    const plan = await storePlan({ scope, intent: `triage ticket ${scope}`, examples: [`triage ticket T-4411 ${scope} and post it to #support-escalations`], inputs_schema, nodes });
    const key = await ctx.key(uid('agent'), 'low');
    const inputs = { ticket: 'T-7004', channel: '#support-escalations' };
    const body = (task: string) => ({ task_descriptor: task, plan_id: plan.id, inputs, trust: { scopes: [scope] }, wait: true });
    const refused = await ctx.call('POST', '/v1/intents', body(`triage ticket T-7004 ${scope} and post it to #billing-escalations`), key);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused).message).toMatch(/^the task names channel=#billing-escalations, but inputs give "#support-escalations"/);
    expect(errorOf(refused).details).toMatchObject({ suggested_inputs: { channel: '#billing-escalations' } });
    expect(await planRunsOf(plan.id)).toEqual([]);
    // What the schema refuses besides is in the same answer: one round trip names every fix.
    const mistyped = await ctx.call('POST', '/v1/intents', { ...body(`triage ticket T-7004 ${scope} and post it to #billing-escalations`), inputs: { ...inputs, ticket: 7004 } }, key);
    expect(errorOf(mistyped).message).toMatch(/but inputs give 7004, "#support-escalations"; inputs\.ticket: must be string \(plan /);
    expect(errorOf(mistyped).details).toMatchObject({ problems: ['inputs.ticket: must be string'] });
    const ran = await ctx.withWorker(() => ctx.call('POST', '/v1/intents', body(`triage ticket T-7004 ${scope} and post it to #support-escalations`), key));
    expect(ran.statusCode).toBe(202);
  });

  it('never auto-runs a plan that would replace a value the task names with one it keeps fixed; named by plan_id, or the fixed value asked for, it runs', async () => {
    const scope = uid('s');
    const inputs_schema = { type: 'object', required: ['host'], properties: { host: { type: 'string', examples: ['w-7', 'w-3'] } } };
    const nodes = [
      { id: 'restart', op: 'echo', params: { value: '{{inputs.host}}' } },
      { id: 'report', op: 'echo', params: { to: 'team@example.com', upstream: '{{nodes.restart.output}}' } },
    ];
    const plan = await storePlan({ scope, intent: `recycle the ${scope} workers and report`, examples: [`recycle the ${scope} workers on w-7 and report`], inputs_schema, nodes, edges: [{ from: 'restart', to: 'report', kind: 'data' }] });
    const key = await ctx.key(uid('agent'), 'low');
    const ask = (task: string, extra: Record<string, unknown> = {}) =>
      ctx.withWorker(() => ctx.call('POST', '/v1/intents', { task_descriptor: task, inputs: { host: 'w-9' }, trust: { scopes: [scope] }, wait: true, ...extra }, key));
    const task = `recycle the ${scope} workers on w-9 and report to eng-all@example.com`;
    const held = await ask(task);
    expect(held.statusCode).toBe(422);
    expect(errorOf(held).code).toBe('needs_more');
    expect(errorOf(held).message).toMatch(/^the task names "eng-all@example.com" where the best match always uses "team@example.com" \(node report, param to\), and the plan takes no input for it \(confidence/);
    const details = errorOf(held).details as { selection: { value_conflict: unknown }; candidates: Array<{ record: { id: string } }> };
    expect(details.selection.value_conflict).toEqual([{ task: 'eng-all@example.com', node: 'report', param: 'to', plan: 'team@example.com' }]);
    expect(details.candidates[0]!.record.id).toBe(plan.id);
    expect(await planRunsOf(plan.id)).toEqual([]);

    const reportedTo = async (answer: Awaited<ReturnType<typeof ask>>) => {
      expect(answer.statusCode).toBe(202);
      return ((answer.json() as IntentResponse).run?.result?.nodes.find((n) => n.id === 'report')?.output as { to?: string }).to;
    };
    expect(await reportedTo(await ask(`recycle the ${scope} workers on w-9 and report to team@example.com`))).toBe('team@example.com');
    expect(await reportedTo(await ask(task, { plan_id: plan.id }))).toBe('team@example.com');
  });

  it('reads missing inputs off where the learned phrasings held their examples; resent, they run the plan', async () => {
    const scope = uid('s');
    const inputs_schema = {
      type: 'object',
      required: ['topic', 'title', 'words'],
      properties: { topic: { type: 'string', examples: ['pg vacuum'] }, title: { type: 'string', examples: ['Vacuum basics'] }, words: { type: 'integer', examples: [12] } },
    };
    const plan = await storePlan({
      scope,
      intent: `research note ${scope}`,
      examples: ['look up what pg vacuum does, summarise it in 12 words and file it as "Vacuum basics"'],
      nodes: [
        { id: 'a', op: 'echo', params: { value: '{{inputs.topic}}', title: '{{inputs.title}}', words: '{{inputs.words}}' } },
        { id: 'b', op: 'echo', params: { upstream: '{{nodes.a.output}}' } },
      ],
      inputs_schema,
    });
    const key = await ctx.key(uid('agent'), 'low');
    const task = `research note ${scope}: look up what kafka rebalancing does, summarise it in 30 words and file it as "Rebalancing"`;
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: task, trust: { scopes: [scope] } }, key);
    expect(response.statusCode).toBe(422);
    const suggested = { topic: 'kafka rebalancing', title: 'Rebalancing', words: 30 };
    expect(errorOf(response).details).toMatchObject({ plan_id: plan.id, suggested_inputs: suggested });
    expect(errorOf(response).message).toMatch(/the task names topic="kafka rebalancing", title=Rebalancing, words=30: send them in inputs$/);
    expect(await planRunsOf(plan.id)).toEqual([]);

    const resent = await ctx.withWorker(() => ctx.call('POST', '/v1/intents', { task_descriptor: task, inputs: suggested, trust: { scopes: [scope] }, wait: true }, key));
    expect(resent.statusCode).toBe(202);
    expect((resent.json() as IntentResponse).run?.result?.nodes.find((n) => n.id === 'a')?.output).toEqual({ value: 'kafka rebalancing', title: 'Rebalancing', words: 30 });
  });

  it('a task worded as a learned phrasing with other values picks its plan, as a learned alias would', async () => {
    const scope = uid('s');
    const examples = RESEARCH_PHRASINGS;
    const inputs_schema = RESEARCH_INPUTS_SCHEMA;
    const plan = await storePlan({
      scope,
      intent: 'web_search_fetch_page_summarize_save_note',
      description: examples[0],
      examples,
      nodes: [
        { id: 'a', op: 'echo', params: { query: '{{inputs.query}}', title: '{{inputs.title}}', max_words: '{{inputs.max_words}}' } },
        { id: 'b', op: 'echo', params: { upstream: '{{nodes.a.output}}' } },
      ],
      inputs_schema,
    });
    const key = await ctx.key(uid('agent'), 'low');
    const task = 'look up how the linux scheduler paces itself, summarise in 30 words, file it as "CFS"';
    const inputs = { query: 'linux scheduler', title: 'CFS', max_words: 30 };
    const response = await ctx.withWorker(() => ctx.call('POST', '/v1/intents', { task_descriptor: task, inputs, trust: { scopes: [scope] }, wait: true }, key));
    expect(response.statusCode).toBe(202);
    const body = response.json() as IntentResponse;
    expect(body).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval', selection: { needs_more: false } });
    expect(body.run?.state).toBe('succeeded');
  });
});

describe('idempotency', () => {
  it('a repeated key returns the same run and never starts a second, even after the first finished', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `idempotent ${scope}` });
    const key = await ctx.key(uid('agent'), 'low');
    const request = { task_descriptor: `idempotent ${scope}`, inputs: { word: 'x' }, trust: { scopes: [scope] }, idempotency_key: uid('k') };
    const { concurrent, later } = await ctx.withWorker(async () => {
      // Three at once race to start: one wins, the others get its run.
      const concurrent = await Promise.all([1, 2, 3].map(() => ctx.call('POST', '/v1/intents', request, key)));
      await settled((concurrent[0]!.json() as IntentResponse).workflow_id, key);
      const later = await ctx.call('POST', '/v1/intents', request, key);
      return { concurrent, later };
    });
    const bodies = [...concurrent, later].map((r) => {
      expect(r.statusCode).toBe(202);
      return r.json() as IntentResponse;
    });
    expect(new Set(bodies.map((b) => `${b.workflow_id}/${b.run_id}`)).size).toBe(1);
    expect(bodies.filter((b) => !b.existing)).toHaveLength(1);
    expect(bodies[3]).toMatchObject({ existing: true, plan_id: plan.id, selected_by: 'retrieval' });
    expect(bodies[3]!.selection?.needs_more).toBe(false);
    // The key sent as an `Idempotency-Key` header instead is the same submission.
    const { idempotency_key: headerKey, ...unkeyed } = request;
    const viaHeader = await ctx.app.inject({ method: 'POST', url: '/v1/intents', payload: unkeyed, headers: { authorization: `Bearer ${key}`, 'idempotency-key': headerKey } });
    expect(viaHeader.json()).toMatchObject({ existing: true, workflow_id: bodies[0]!.workflow_id });
    expect(await planRunsOf(plan.id)).toHaveLength(1);
    const stored = await ctx.services.records.get(plan.id);
    expect(stored?.payload.kind === 'plan_graph' && stored.payload.metrics.execution_count).toBe(1);

    // The same key from another principal is a different submission.
    const other = await ctx.key(uid('other'), 'low');
    const theirs = await ctx.call('POST', '/v1/intents', { ...request, task_descriptor: request.task_descriptor }, other);
    expect(theirs.statusCode).toBe(202);
    expect((theirs.json() as IntentResponse).workflow_id).not.toBe(bodies[0]!.workflow_id);
    await ctx.withWorker(() => settled((theirs.json() as IntentResponse).workflow_id, other));

    // Reusing a key for a different task is a conflict, not a silent return of the old run.
    const reused = await ctx.call('POST', '/v1/intents', { ...request, task_descriptor: 'something else' }, key);
    expect(reused.statusCode).toBe(409);
    expect(errorOf(reused)).toMatchObject({ code: 'conflict', details: { idempotency_key: request.idempotency_key, field: 'task_descriptor' } });
  });

  it('a repeated key is the same request: other inputs or another plan_id are 409 naming the field, inputs in another key order are not', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `idempotent inputs ${scope}` });
    const other = await storePlan({ scope, intent: `idempotent other ${scope}` });
    const key = await ctx.key(uid('agent'), 'low');
    const request = { task_descriptor: `idempotent inputs ${scope}`, plan_id: plan.id, inputs: { word: 'x', n: 1 }, trust: { scopes: [scope] }, idempotency_key: uid('k') };
    const first = await ctx.withWorker(async () => {
      const response = await ctx.call('POST', '/v1/intents', request, key);
      expect(response.statusCode).toBe(202);
      const body = response.json() as IntentResponse;
      await settled(body.workflow_id, key);
      return body;
    });

    const reordered = await ctx.call('POST', '/v1/intents', { ...request, inputs: { n: 1, word: 'x' } }, key);
    expect(reordered.statusCode).toBe(202);
    expect(reordered.json()).toMatchObject({ workflow_id: first.workflow_id, run_id: first.run_id, existing: true });

    const refusals: Array<[string, Record<string, unknown>]> = [
      ['inputs', { inputs: { word: 'y', n: 1 } }],
      ['plan_id', { plan_id: other.id }],
      ['plan_id', { plan_id: undefined }],
      ['trust', { trust: { scopes: [scope, uid('s')] } }],
    ];
    for (const [field, change] of refusals) {
      const refused = await ctx.call('POST', '/v1/intents', { ...request, ...change }, key);
      expect(refused.statusCode, field).toBe(409);
      expect(errorOf(refused), field).toMatchObject({ code: 'conflict', details: { idempotency_key: request.idempotency_key, field, workflow_id: first.workflow_id } });
    }
    // Nothing else was started: one run of the first plan, none of the other.
    expect(await planRunsOf(plan.id)).toHaveLength(1);
    expect(await planRunsOf(other.id)).toEqual([]);
  });
});

describe('needs_more', () => {
  it('two near-equal plans: 422 with both ranked candidates and nothing started; naming one runs it', async () => {
    const scope = uid('s');
    const intent = `summarise the report ${scope}`;
    const first = await storePlan({ scope, intent, nodes: [{ id: 'a', op: 'echo' }], edges: [] });
    const second = await storePlan({ scope, intent, nodes: [{ id: 'a', op: 'noop' }], edges: [] });
    const key = await ctx.key(uid('agent'), 'low');
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: intent, inputs: {}, trust: { scopes: [scope] } }, key);
    expect(response.statusCode).toBe(422);
    const error = errorOf(response);
    expect(error.code).toBe('needs_more');
    const details = error.details as { selection: { confidence: number; needs_more: boolean }; candidates: Array<{ record: { id: string }; score: number }> };
    expect(details.selection.needs_more).toBe(true);
    expect(details.selection.confidence).toBeLessThan(CALIBRATED_THRESHOLD);
    expect(details.candidates.map((c) => c.record.id).sort()).toEqual([first.id, second.id].sort());
    expect(details.candidates[0]!.score).toBeGreaterThanOrEqual(details.candidates[1]!.score);
    expect(await planRunsOf(first.id)).toEqual([]);
    expect(await planRunsOf(second.id)).toEqual([]);

    const named = await ctx.withWorker(() =>
      ctx.call('POST', '/v1/intents', { task_descriptor: intent, inputs: {}, trust: { scopes: [scope] }, plan_id: second.id, wait: true }, key),
    );
    expect(named.statusCode).toBe(202);
    expect(named.json()).toMatchObject({ plan_id: second.id, selected_by: 'plan_id', selection: null, run: { state: 'succeeded' } });
    // The caller had to name the plan, and its run succeeded: the task joins the plan's aliases, audited.
    const aliases = await ctx.services.db.$client.query<{ aliases: string[] }>('SELECT aliases FROM memory_records WHERE id = $1', [second.id]);
    expect(aliases.rows[0]!.aliases).toEqual([intent]);
    expect((await ctx.services.records.audit(second.id)).map((a) => a.action)).toContain('learn_alias');
  });

  it('learning from use: a task that needed a named plan is, once that run succeeded, picked by retrieval', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `rotate tls certificates ${scope}`, description: 'Renew certificates before they expire' });
    await storePlan({ scope, intent: `rotate api keys ${scope}`, description: 'Issue a new key for a provider and revoke the old one' });
    const task = `the https cert for shop.example.com lapses friday, sort it out ${scope}`;
    const key = await ctx.key(uid('agent'), 'low');
    const ask = () => ctx.call('POST', '/v1/intents', { task_descriptor: task, inputs: { word: 'x' }, trust: { scopes: [scope] }, wait: true }, key);
    const before = await ask();
    expect(before.statusCode).toBe(422);
    expect(errorOf(before).code).toBe('needs_more');
    const named = await ctx.withWorker(() =>
      ctx.call('POST', '/v1/intents', { task_descriptor: task, inputs: { word: 'x' }, trust: { scopes: [scope] }, plan_id: plan.id, wait: true }, key),
    );
    expect(named.json()).toMatchObject({ selected_by: 'plan_id', run: { state: 'succeeded' } });
    const after = await ctx.withWorker(ask);
    expect(after.statusCode).toBe(202);
    expect(after.json()).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval', selection: { needs_more: false, mode: 'calibrated' } });
  });

  it('learning from use keeps the wording, not the values: the same request with other inputs is picked too', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `save a note ${scope}`, description: 'Store a titled note in the notebook', inputs_schema: { type: 'object', required: ['title'] } });
    await storePlan({ scope, intent: `summarise a web page ${scope}`, description: 'Fetch a page and summarise it' });
    const key = await ctx.key(uid('agent'), 'low');
    const ask = (title: string, body: string, planId?: string) =>
      ctx.call('POST', '/v1/intents', { task_descriptor: `jot down a note called ${title}: ${body} ${scope}`, inputs: { title, body }, trust: { scopes: [scope] }, plan_id: planId, wait: true }, key);
    expect(errorOf(await ask('Retro', 'ship smaller pull requests every week')).code).toBe('needs_more');
    const named = await ctx.withWorker(() => ask('Retro', 'ship smaller pull requests every week', plan.id));
    expect(named.json()).toMatchObject({ selected_by: 'plan_id', run: { state: 'succeeded' } });
    const aliases = await ctx.services.db.$client.query<{ aliases: string[] }>('SELECT aliases FROM memory_records WHERE id = $1', [plan.id]);
    expect(aliases.rows[0]!.aliases).toEqual([`jot down a note called: ${scope}`]);
    const other = await ctx.withWorker(() => ask('Ideas', 'try rust for the parser'));
    expect(other.statusCode, other.body).toBe(202);
    expect(other.json()).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval' });
  });
});

describe('a plan named by id that was replaced', () => {
  it('runs as named, and the answer and the CLI name the active plan at the end of its revisions', async () => {
    const scope = uid('s');
    const first = await storePlan({ scope, nodes: [{ id: 'a', op: 'echo', params: { value: 'v1' } }], edges: [] });
    const payload = (value: string) => ({ ...(first.payload as object), nodes: [{ id: 'a', op: 'echo', params: { value } }], edges: [] });
    const second = (await ctx.services.revisions.supersede(first.id, { expected_revision: first.revision, payload: payload('v2') }, { actor: 'test' })).record;
    const third = (await ctx.services.revisions.supersede(second.id, { expected_revision: second.revision, payload: payload('v3') }, { actor: 'test' })).record;
    const key = await ctx.key(uid('agent'), 'low');
    const named = await ctx.withWorker(() =>
      ctx.call('POST', '/v1/intents', { task_descriptor: `old plan ${scope}`, inputs: {}, trust: { scopes: [scope] }, plan_id: first.id, wait: true }, key),
    );
    expect(named.statusCode).toBe(202);
    const body = named.json() as IntentResponse;
    expect(body).toMatchObject({ plan_id: first.id, superseded_by: third.id, run: { state: 'succeeded' } });
    expect(body.run?.result?.nodes.find((n) => n.id === 'a')?.output).toEqual({ value: 'v1' });
    // The active plan has no successor to name; nor has a replaced one whose successor the caller may not see.
    const current = await ctx.withWorker(() => ctx.call('POST', '/v1/intents', { task_descriptor: `new plan ${scope}`, inputs: {}, trust: { scopes: [scope] }, plan_id: third.id }, key));
    expect(current.json()).not.toHaveProperty('superseded_by');
    await ctx.services.db.$client.query("UPDATE memory_records SET scope = 'elsewhere' WHERE id = $1", [third.id]);
    const hidden = await ctx.withWorker(() => ctx.call('POST', '/v1/intents', { task_descriptor: `old plan ${scope}`, inputs: {}, trust: { scopes: [scope] }, plan_id: first.id }, key));
    expect(hidden.json()).not.toHaveProperty('superseded_by');
    const cli = await ctx.withWorker(() => runCli(ctx, 'run', '--plan-id', second.id));
    expect(cli.stdout).toContain(`note this plan was superseded; the plan replacing it is ${third.id} (run --plan-id ${third.id})`);
  });
});

describe('a stored inputs_schema that does not compile', () => {
  it('a plan stored before writes checked it: 422 invalid_plan naming inputs_schema, named or picked, and nothing started', async () => {
    const scope = uid('s');
    const intent = `tidy the inbox ${scope}`;
    // Stored straight into the record store: the API refuses such a plan.
    const plan = await storePlan({ scope, intent, inputs_schema: { type: 'objekt' } });
    const key = await ctx.key(uid('agent'), 'low');
    for (const named of [{ plan_id: plan.id }, {}]) {
      const response = await ctx.call('POST', '/v1/intents', { task_descriptor: intent, inputs: { word: 'x' }, trust: { scopes: [scope] }, ...named }, key);
      expect(response.statusCode, JSON.stringify(named)).toBe(422);
      expect(errorOf(response)).toMatchObject({
        code: 'invalid_plan',
        details: { issues: [{ code: 'invalid_schema', path: 'inputs_schema.type', message: expect.stringContaining('must be equal to one of the allowed values') }] },
      });
    }
    expect(await planRunsOf(plan.id)).toEqual([]);
  });
});

describe('trust', () => {
  it('a caller can narrow its trust but never widen it (403, nothing started)', async () => {
    const scope = uid('s');
    const plan = await storePlan({ scope, intent: `trusted ${scope}` });
    const key = await ctx.key(uid('agent'), 'low', [scope]);
    const before = await ctx.count('plan_runs');
    const cases = [
      { key, trust: { max_sensitivity: 'high' } },
      { key, trust: { scopes: [scope, 'elsewhere'] } },
      { key: undefined, trust: { authenticated: true } },
      { key: undefined, trust: { max_sensitivity: 'low' } },
    ];
    for (const c of cases) {
      const response = await ctx.call('POST', '/v1/intents', { task_descriptor: `trusted ${scope}`, inputs: {}, trust: c.trust, plan_id: plan.id }, c.key);
      expect(response.statusCode, JSON.stringify(c.trust)).toBe(403);
      expect(errorOf(response).code).toBe('forbidden');
    }
    expect(await ctx.count('plan_runs')).toBe(before);
  });

  it('plans requiring authentication or a higher clearance are refused with 403; allowed callers run them', async () => {
    const scope = uid('s');
    const authOnly = await storePlan({ scope, sensitivity: 'public', intent: `members only ${scope}`, constraints: { requires_authenticated: true } });
    const cleared = await storePlan({ scope, sensitivity: 'low', intent: `handles secrets ${scope}`, constraints: { max_sensitivity: 'high' } });
    const low = await ctx.key(uid('agent'), 'low');
    const high = await ctx.key(uid('admin'), 'high');
    const submit = (planId: string, apiKey?: string) =>
      ctx.call('POST', '/v1/intents', { task_descriptor: 'run it', inputs: { word: 'w' }, plan_id: planId, wait: true }, apiKey);

    const anonymous = await submit(authOnly.id);
    expect(anonymous.statusCode).toBe(403);
    expect(errorOf(anonymous).details).toMatchObject({ constraint: 'requires_authenticated' });
    const notCleared = await submit(cleared.id, low);
    expect(notCleared.statusCode).toBe(403);
    expect(errorOf(notCleared).details).toMatchObject({ constraint: 'max_sensitivity' });
    expect(await planRunsOf(authOnly.id)).toEqual([]);
    expect(await planRunsOf(cleared.id)).toEqual([]);

    const [ok1, ok2] = await ctx.withWorker(() => Promise.all([submit(authOnly.id, low), submit(cleared.id, high)]));
    expect(ok1!.statusCode).toBe(202);
    expect(ok2!.statusCode).toBe(202);
    // The anonymous caller cannot look at the authenticated-only plan's run either.
    const hidden = await ctx.call('GET', `/v1/runs/${(ok1!.json() as IntentResponse).workflow_id}`);
    expect(hidden.statusCode).toBe(404);
  });

  it('a named plan the caller cannot see is 404; one level above its clearance is 403', async () => {
    const scope = uid('s');
    const medium = await storePlan({ scope, sensitivity: 'medium', intent: `medium ${scope}` });
    const hyper = await storePlan({ scope, sensitivity: 'hyper', intent: `hyper ${scope}` });
    const key = await ctx.key(uid('agent'), 'low');
    const submit = (planId: string) => ctx.call('POST', '/v1/intents', { task_descriptor: 'x', inputs: {}, plan_id: planId }, key);
    expect((await submit(medium.id)).statusCode).toBe(403);
    expect((await submit(hyper.id)).statusCode).toBe(404);
    expect((await submit('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('an unknown API key is 401', async () => {
    const response = await ctx.call('POST', '/v1/intents', { task_descriptor: 'x', inputs: {} }, 'pg_not-a-key');
    expect(response.statusCode).toBe(401);
    expect(errorOf(response).code).toBe('unauthenticated');
  });
});

describe('runs: live status, bounded wait and cancellation', () => {
  it('a wait that runs out answers with the live per-node status; cancel stops the run; a second cancel is 409', async () => {
    const scope = uid('s');
    const plan = await storePlan({
      scope,
      intent: `slow job ${scope}`,
      nodes: [
        { id: 'first', op: 'noop' },
        { id: 'slow', op: 'sleep', params: { ms: 60_000 }, policy: { heartbeat_timeout: '2s' } },
      ],
      edges: [{ from: 'first', to: 'slow', kind: 'control' }],
    });
    const key = await ctx.key(uid('agent'), 'low');
    const view = await ctx.withWorker(async () => {
      const response = await ctx.call(
        'POST',
        '/v1/intents',
        { task_descriptor: `slow job ${scope}`, inputs: {}, plan_id: plan.id, wait: true, wait_timeout_ms: 1_500 },
        key,
      );
      expect(response.statusCode).toBe(202);
      const body = response.json() as IntentResponse;
      expect(body.run?.state).toBe('running');
      expect(body.run?.result).toBeUndefined();
      expect(body.run?.status?.nodes.map((n) => n.id)).toEqual(['first', 'slow']);

      const cancel = await ctx.call('POST', `/v1/runs/${body.workflow_id}/cancel`, {}, key);
      expect(cancel.statusCode).toBe(202);
      expect(cancel.json()).toMatchObject({ workflow_id: body.workflow_id, run_id: body.run_id, cancel_requested: true });
      return settled(body.workflow_id, key);
    });
    expect(view.state).toBe('cancelled');
    expect(view.record?.status).toBe('cancelled');
    expect(view.result?.nodes.map((n) => [n.id, n.state])).toEqual([
      ['first', 'succeeded'],
      ['slow', 'cancelled'],
    ]);
    const again = await ctx.call('POST', `/v1/runs/${view.workflow_id}/cancel`, {}, key);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).details).toMatchObject({ state: 'cancelled' });
  });

  it('a failed run shows its failure and every node’s state', async () => {
    const scope = uid('s');
    const plan = await storePlan({
      scope,
      intent: `doomed ${scope}`,
      nodes: [
        { id: 'boom', op: 'fail', params: { message: 'kaput' } },
        { id: 'after', op: 'noop' },
      ],
      edges: [{ from: 'boom', to: 'after', kind: 'control' }],
    });
    const key = await ctx.key(uid('agent'), 'low');
    const response = await ctx.withWorker(() =>
      ctx.call('POST', '/v1/intents', { task_descriptor: 'x', inputs: {}, plan_id: plan.id, wait: true }, key),
    );
    const run = (response.json() as IntentResponse).run!;
    expect(run.state).toBe('failed');
    expect(run.error?.message).toContain('boom');
    expect(run.result?.nodes.map((n) => [n.id, n.state])).toEqual([
      ['boom', 'failed'],
      ['after', 'cancelled'],
    ]);
  });

  it('a node that retries shows its current attempt and the last attempt’s failure while it waits for the next', async () => {
    const scope = uid('s');
    const retry = { maximum_attempts: 3, initial_interval: '1s', backoff_coefficient: 10 };
    const plan = await storePlan({ scope, intent: `shaky ${scope}`, nodes: [{ id: 'shaky', op: 'flaky', params: { fail_times: 5 }, policy: { retry } }], edges: [] });
    const key = await ctx.key(uid('agent'), 'low');
    await ctx.withWorker(async () => {
      const started = await ctx.call('POST', '/v1/intents', { task_descriptor: 'x', inputs: {}, plan_id: plan.id }, key);
      const { workflow_id } = started.json() as IntentResponse;
      // Attempt 2 fails after a 1 s backoff; attempt 3 waits 10 s: the view is read in between.
      const node = await until(
        async () => ((await ctx.call('GET', `/v1/runs/${workflow_id}`, undefined, key)).json() as RunView).status?.nodes[0],
        (n) => n?.attempts === 3,
        'the third attempt scheduled',
      );
      expect(node).toMatchObject({ id: 'shaky', state: 'running', attempts: 3, error: { type: 'Error', message: 'flaky failure on attempt 2' } });
      expect((await ctx.call('POST', `/v1/runs/${workflow_id}/cancel`, {}, key)).statusCode).toBe(202);
      expect((await settled(workflow_id, key)).state).toBe('cancelled');
    });
  });

  it('unknown runs and runs that are not plan runs are 404', async () => {
    expect((await ctx.call('GET', `/v1/runs/${uid('nope')}`)).statusCode).toBe(404);
    expect((await ctx.call('POST', `/v1/runs/${uid('nope')}/cancel`, {})).statusCode).toBe(404);
  });
});
