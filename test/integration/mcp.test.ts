/**
 * The MCP server as an agent framework sees it: spawned over stdio (`plangraph mcp`) and driven
 * by the MCP SDK's own client, against the real worker, Temporal and Postgres.
 */
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sensitivity } from '../../src/domain/records';
import type { IntentResponse, RunView } from '../../src/intents/schemas';
import { createApiTestContext, type ApiTestContext } from './api-harness';
import { TEST_OPS_MODULE, uid } from './harness';
import { runRows } from './executor-helpers';
import { storePlan as storeTestPlan } from './plans';

const ROOT = resolve(import.meta.dirname, '../..');

let ctx: ApiTestContext;
let mcp: Client;
beforeAll(async () => {
  ctx = await createApiTestContext();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp'],
    cwd: ROOT,
    env: {
      ...(process.env as Record<string, string>),
      DATABASE_URL: ctx.config.DATABASE_URL,
      TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: ctx.taskQueue,
      OPS_MODULES: TEST_OPS_MODULE,
      MCP_API_KEY: await ctx.key(uid('mcp-agent'), 'low'),
    },
    stderr: 'pipe',
  });
  mcp = new Client({ name: 'plangraph-test', version: '0.0.0' });
  await mcp.connect(transport);
});
afterAll(async () => {
  await mcp?.close();
  await ctx?.close();
});

function storePlan(scope: string, intent: string, sensitivity: Sensitivity = 'low') {
  return storeTestPlan(ctx.services.records, {
    scope,
    intent,
    sensitivity,
    nodes: [
      { id: 'say', op: 'echo', params: { text: '{{inputs.text}}' } },
      { id: 'done', op: 'noop' },
    ],
    edges: [{ from: 'say', to: 'done', kind: 'data' }],
  });
}

/** Calls a tool; returns its parsed JSON text and whether it was an error. */
async function call<T>(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: T }> {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.find((c) => c.type === 'text');
  return { isError: result.isError === true, body: JSON.parse(text && 'text' in text ? text.text : 'null') as T };
}

describe('plangraph over MCP (stdio)', () => {
  it('lists its tools with input schemas', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['decide_approval', 'find_plans', 'get_run', 'list_approvals', 'reinforce_plan', 'resume_run', 'run_intent', 'run_plan', 'submit_episode']);
    const runIntent = tools.find((t) => t.name === 'run_intent')!;
    expect(runIntent.inputSchema.required).toContain('task_descriptor');
    expect(Object.keys(runIntent.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['inputs', 'idempotency_key', 'wait']));
  });

  it('finds a plan, runs the intent, follows the run and reinforces the plan', async () => {
    const scope = uid('mcp');
    const intent = `translate a greeting ${scope}`;
    const plan = await storePlan(scope, intent);

    const found = await call<{ candidates: Array<{ record: { id: string } }>; selection: { needs_more: boolean } }>('find_plans', {
      task_descriptor: intent,
      trust: { scopes: [scope] },
    });
    expect(found.isError).toBe(false);
    expect(found.body.candidates.map((c) => c.record.id)).toEqual([plan.id]);
    expect(found.body.selection.needs_more).toBe(false);

    const started = await ctx.withWorker(() =>
      call<IntentResponse>('run_intent', { task_descriptor: intent, inputs: { text: 'hola' }, trust: { scopes: [scope] }, wait: true }),
    );
    expect(started.isError).toBe(false);
    expect(started.body).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval', run: { state: 'succeeded' } });
    expect(started.body.run?.result?.nodes.find((n) => n.id === 'say')?.output).toEqual({ text: 'hola' });

    const run = await call<RunView>('get_run', { workflow_id: started.body.workflow_id });
    expect(run.body).toMatchObject({ state: 'succeeded', plan_id: plan.id, record: { status: 'succeeded' } });

    const reinforced = await call<{ id: string; salience: number }>('reinforce_plan', { plan_id: plan.id, reason: 'it worked' });
    expect(reinforced.body).toMatchObject({ id: plan.id, salience: 0.1 });
    const audit = await ctx.services.records.audit(plan.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'reinforce']);
  });

  it('runs a named plan when the choice is ambiguous, and answers needs_more as a tool error', async () => {
    const scope = uid('mcp');
    const intent = `compress the logs ${scope}`;
    const first = await storePlan(scope, intent);
    // Same intent, different structure: a near-equal twin.
    const twin = await storeTestPlan(ctx.services.records, { scope, intent, nodes: [{ id: 'only', op: 'noop' }] });
    const ambiguous = await call<{ error: { code: string; details: { candidates: Array<{ record: { id: string } }> } } }>('run_intent', {
      task_descriptor: intent,
      trust: { scopes: [scope] },
    });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.body.error.code).toBe('needs_more');
    expect(ambiguous.body.error.details.candidates.map((c) => c.record.id).sort()).toEqual([first.id, twin.id].sort());

    const named = await ctx.withWorker(() => call<IntentResponse>('run_plan', { plan_id: twin.id, wait: true }));
    expect(named.isError).toBe(false);
    expect(named.body).toMatchObject({ plan_id: twin.id, selected_by: 'plan_id', run: { state: 'succeeded' } });
  });

  it('refuses a top-level __proto__ run input, naming inputs.__proto__, and starts nothing', async () => {
    const scope = uid('mcp');
    const plan = await storePlan(scope, `say it ${scope}`);
    // Parsed, not written as a literal: JSON.parse makes "__proto__" an own key, as on the wire.
    const inputs = JSON.parse('{"__proto__": {"a": 1}}') as Record<string, unknown>;
    for (const [name, args] of [
      ['run_plan', { plan_id: plan.id, inputs, trust: { scopes: [scope] } }],
      ['run_intent', { task_descriptor: `say it ${scope}`, inputs, trust: { scopes: [scope] } }],
    ] as const) {
      const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = result.content.find((c) => c.type === 'text');
      expect(text && 'text' in text ? text.text : '').toMatch(/is a key named "__proto__", which is refused .* at inputs\.__proto__/);
    }
    expect(await runRows(ctx.db, plan.id)).toEqual([]);
  });

  it('refuses arguments that do not match a tool’s schema before it runs, naming the argument (the MCP library’s text, as documented)', async () => {
    const result = (await mcp.callTool({ name: 'run_plan', arguments: { plan_id: 'not-a-uuid', inputs: {} } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = result.content.find((c) => c.type === 'text');
    expect(text && 'text' in text ? text.text : '').toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool run_plan: .* at plan_id/);
  });

  it('refuses an episode with a __proto__ key anywhere in its payload instead of storing it without', async () => {
    const tag = uid('mcp-proto');
    const payload = JSON.parse('{"kind":"episodic","outcome":"success","tool_graph":[{"id":"a","tool":"x","args":{"__proto__":{"admin":true}}}]}') as Record<string, unknown>;
    const result = (await mcp.callTool({ name: 'submit_episode', arguments: { tags: [tag], payload } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = result.content.find((c) => c.type === 'text');
    expect(text && 'text' in text ? text.text : '').toMatch(/is a key named "__proto__", which is refused .* at payload\.tool_graph\.0\.args\.__proto__/);
    const stored = await ctx.db.execute(sql`SELECT 1 FROM memory_records WHERE ${tag} = ANY(tags)`);
    expect(stored.rows).toEqual([]);
  });

  it('submits an episode as the key’s principal, and keeps to the key’s clearance', async () => {
    const submitted = await call<{ id: string; type: string }>('submit_episode', {
      scope: uid('mcp'),
      payload: { kind: 'episodic', outcome: 'success', timeline: [{ t: '2024-01-01T00:00:00Z', event_kind: 'mcp' }], tool_graph: [] },
    });
    expect(submitted.isError).toBe(false);
    expect(submitted.body.type).toBe('episodic');
    expect((await ctx.services.records.audit(submitted.body.id)).map((a) => a.actor)).toEqual([expect.stringMatching(/^mcp-agent-/)]);

    // A retried call with its idempotency key gets the stored episode back instead of a second one.
    const keyed = { scope: uid('mcp'), idempotency_key: uid('key'), payload: { kind: 'episodic', outcome: 'success', tool_graph: [] } };
    const once = await call<{ id: string }>('submit_episode', keyed);
    const retried = await call<{ id: string }>('submit_episode', keyed);
    expect(retried).toMatchObject({ isError: false, body: { id: once.body.id } });
    const other = await call<{ error: { code: string } }>('submit_episode', { ...keyed, payload: { ...keyed.payload, outcome: 'failure' } });
    expect(other).toMatchObject({ isError: true, body: { error: { code: 'conflict' } } });

    const secret = await storePlan(uid('mcp'), 'medium secret', 'medium');
    const refused = await call<{ error: { code: string } }>('reinforce_plan', { plan_id: secret.id });
    expect(refused).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
    const widened = await call<{ error: { code: string } }>('find_plans', { task_descriptor: 'x', trust: { max_sensitivity: 'high' } });
    expect(widened).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
  });

  it('lists a run’s approval waits, approves one, and resumes a failed run', async () => {
    const scope = uid('mcp');
    const gated = await storeTestPlan(ctx.services.records, {
      scope,
      intent: `approve then say ${scope}`,
      nodes: [
        { id: 'ok', op: 'approval', params: { prompt: 'Say it?' } },
        { id: 'say', op: 'echo', params: { text: 'approved' } },
      ],
      edges: [{ from: 'ok', to: 'say', kind: 'data' }],
    });
    const failing = await storeTestPlan(ctx.services.records, { scope, intent: `fail ${scope}`, nodes: [{ id: 'boom', op: 'fail', params: {} }] });
    await ctx.withWorker(async () => {
      const started = await call<IntentResponse>('run_plan', { plan_id: gated.id, trust: { scopes: [scope] } });
      expect(started.isError).toBe(false);
      const id = started.body.workflow_id;
      const deadline = Date.now() + 20_000;
      let waits = await call<{ waiting_for: Array<{ node_id: string; prompt: string }> }>('list_approvals', { workflow_id: id });
      while (waits.body.waiting_for?.length !== 1 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        waits = await call('list_approvals', { workflow_id: id });
      }
      expect(waits.body.waiting_for).toEqual([expect.objectContaining({ node_id: 'ok', prompt: 'Say it?' })]);
      const across = await call<{ items: Array<{ workflow_id: string }> }>('list_approvals', {});
      expect(across.body.items.map((i) => i.workflow_id)).toContain(id);
      const decided = await call<{ approved: boolean; by: string }>('decide_approval', { workflow_id: id, node_id: 'ok', decision: 'approve', comment: 'fine' });
      expect(decided).toMatchObject({ isError: false, body: { approved: true, by: expect.stringMatching(/^mcp-agent-/) } });
      await ctx.services.temporal.client.workflow.getHandle(id).result();

      const failed = await call<IntentResponse>('run_plan', { plan_id: failing.id, trust: { scopes: [scope] }, wait: true });
      expect(failed.body.run?.state).toBe('failed');
      const resumed = await call<{ resumed_from: string; rerun: string[] }>('resume_run', { workflow_id: failed.body.workflow_id });
      expect(resumed).toMatchObject({ isError: false, body: { resumed_from: failed.body.workflow_id, rerun: ['boom'] } });
      const again = await call<{ error: { code: string } }>('resume_run', { workflow_id: id });
      expect(again).toMatchObject({ isError: true, body: { error: { code: 'conflict' } } });
      await ctx.services.temporal.client.workflow.getHandle((resumed.body as unknown as { workflow_id: string }).workflow_id).result().catch(() => undefined);
    });
  });
});
