/**
 * Approval nodes and the requires_approval gate over the real API, a real worker, Temporal and
 * Postgres: approve, reject, time out, a caller who may not run the plan, and the gate holding
 * back the first node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process';
import type { ApprovalList } from '../../src/runs/approve-run';
import type { PendingApprovals } from '../../src/runs/pending-approvals';
import type { IntentResponse, RunView } from '../../src/intents/schemas';
import type { RunStatus } from '../../src/domain/run-state';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';
import { startFileWorker, uid } from './harness';
import { storePlan, type PlanSpec } from './plans';
import { summariesOf, until } from './executor-helpers';

let ctx: ApiTestContext;
let stopWorker: () => Promise<void>;
let key: string;
beforeAll(async () => {
  ctx = await createApiTestContext();
  stopWorker = await startFileWorker(ctx);
  key = await ctx.key('approver', 'high');
});
afterAll(async () => {
  await stopWorker?.();
  await ctx?.close();
});

/** Stores the plan and starts it by id; returns the workflow id. */
async function start(spec: PlanSpec, apiKey = key, inputs: Record<string, unknown> = {}): Promise<string> {
  const plan = await storePlan(ctx.services.records, { intent: uid('approval plan'), ...spec });
  const response = await ctx.call('POST', '/v1/intents', { task_descriptor: 'run it', inputs, plan_id: plan.id }, apiKey);
  expect(response.statusCode, response.body).toBe(202);
  return (response.json() as IntentResponse).workflow_id;
}

async function view(workflowId: string, apiKey = key): Promise<RunView> {
  const response = await ctx.call('GET', `/v1/runs/${workflowId}`, undefined, apiKey);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as RunView;
}

const liveStatus = async (workflowId: string): Promise<RunStatus | undefined> => (await view(workflowId)).status;
const untilWaiting = (workflowId: string, nodeId: string) =>
  until(() => liveStatus(workflowId), (s) => s?.waiting_for?.some((w) => w.node_id === nodeId) === true, `${nodeId} waiting`);

async function settled(workflowId: string): Promise<RunView> {
  await ctx.services.temporal.client.workflow.getHandle(workflowId).result().catch(() => undefined);
  return view(workflowId);
}

const decide = (workflowId: string, node: string, body: unknown, apiKey = key) => ctx.call('POST', `/v1/runs/${workflowId}/approvals/${encodeURIComponent(node)}`, body, apiKey);

const approvalPlan = (params: Record<string, unknown> = { prompt: 'Deploy to production?' }): PlanSpec => ({
  nodes: [
    { id: 'build', op: 'echo', params: { built: true } },
    { id: 'ok', op: 'approval', params },
    { id: 'deploy', op: 'echo', params: { approver: '{{nodes.ok.output.by}}' } },
  ],
  edges: [
    { from: 'build', to: 'ok', kind: 'control' },
    { from: 'ok', to: 'deploy', kind: 'data' },
  ],
});

describe('approval nodes', () => {
  it('waits (node state waiting, run-level waiting_for) until approved; the output records who, when and the comment', async () => {
    const id = await start(approvalPlan());
    const status = await untilWaiting(id, 'ok');
    const ok = status!.nodes.find((n) => n.id === 'ok')!;
    expect(ok).toMatchObject({ state: 'waiting', prompt: 'Deploy to production?' });
    expect(ok.execution).toBeUndefined();
    expect(status!.nodes.find((n) => n.id === 'deploy')!.state).toBe('pending');
    expect(status!.waiting_for).toEqual([expect.objectContaining({ node_id: 'ok', prompt: 'Deploy to production?', decided_by: 'a caller who may run the plan' })]);
    const listed = await ctx.call('GET', `/v1/runs/${id}/approvals`, undefined, key);
    expect((listed.json() as ApprovalList).waiting_for.map((w) => w.node_id)).toEqual(['ok']);
    const across = (await ctx.call('GET', '/v1/approvals?limit=200', undefined, key)).json() as PendingApprovals;
    expect(across.items.find((i) => i.workflow_id === id)?.waiting_for.map((w) => w.node_id)).toEqual(['ok']);

    // Refusals that change nothing: a node that is not an approval, an unknown node, a pending one, a bad body.
    expect(errorOf(await decide(id, 'build', { decision: 'approve' }))).toMatchObject({ code: 'bad_request' });
    expect((await decide(id, 'nope', { decision: 'approve' })).statusCode).toBe(404);
    expect((await decide(id, '$run', { decision: 'approve' })).statusCode).toBe(409);
    const bad = await decide(id, 'ok', { decision: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toContain('body.decision');

    const approved = await decide(id, 'ok', { decision: 'approve', comment: 'ship it' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ node_id: 'ok', decision: 'approve', approved: true, by: 'approver', comment: 'ship it' });
    const final = await settled(id);
    expect(final.state).toBe('succeeded');
    const nodes = Object.fromEntries(final.result!.nodes.map((n) => [n.id, n]));
    expect(nodes.ok).toMatchObject({ state: 'succeeded', output: { approved: true, by: 'approver', comment: 'ship it' } });
    expect(nodes.deploy!.output).toMatchObject({ approver: 'approver' });
    expect(final.result!.approvals).toHaveLength(1);
    expect(final.result!.waiting_for).toBeUndefined();
    // Decided and closed: a second decision is a conflict; the list shows the decision, nothing waiting.
    expect((await decide(id, 'ok', { decision: 'approve' })).statusCode).toBe(409);
    const afterwards = await ctx.call('GET', `/v1/runs/${id}/approvals`, undefined, key);
    expect(afterwards.statusCode, afterwards.body).toBe(200);
    expect(afterwards.json()).toMatchObject({ workflow_id: id, waiting_for: [], approvals: [{ node_id: 'ok', decision: 'approve', by: 'approver' }] });
  });

  it('decisions sent at once: one is taken, the others are 409s, never a 500 (the run may close under them)', async () => {
    // A lone approval node: the first decision ends the run while the others are on their way.
    const id = await start({ nodes: [{ id: 'go', op: 'approval', params: { prompt: 'Ship?' } }], edges: [] });
    await untilWaiting(id, 'go');
    const answers = await Promise.all(Array.from({ length: 5 }, () => decide(id, 'go', { decision: 'approve' })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([200, 409, 409, 409, 409]);
    expect((await settled(id)).state).toBe('succeeded');
  });

  it('a rejection fails the node with approval_rejected and the run with it (fail_fast cancels what waits on it)', async () => {
    const id = await start(approvalPlan());
    await untilWaiting(id, 'ok');
    expect((await decide(id, 'ok', { decision: 'reject', comment: 'not on a Friday' })).statusCode).toBe(200);
    const final = await settled(id);
    expect(final.state).toBe('failed');
    expect(final.error?.type).toBe('approval_rejected');
    const ok = final.result!.nodes.find((n) => n.id === 'ok')!;
    expect(ok).toMatchObject({ state: 'failed', error: { type: 'approval_rejected' } });
    expect(ok.error!.message).toContain('not on a Friday');
    expect(final.result!.nodes.find((n) => n.id === 'deploy')!.state).toBe('cancelled');
    expect(final.record).toMatchObject({ status: 'failed', error: { type: 'approval_rejected' } });
  });

  it('times out with approval_timeout when nobody decides within params.timeout', async () => {
    const id = await start(approvalPlan({ prompt: 'Quick?', timeout: '1s' }));
    const waiting = await untilWaiting(id, 'ok');
    expect(waiting!.waiting_for![0]!.timeout_at).toBeDefined();
    const final = await settled(id);
    expect(final.state).toBe('failed');
    expect(final.result!.nodes.find((n) => n.id === 'ok')).toMatchObject({ state: 'failed', error: { type: 'approval_timeout' } });
    // The Temporal UI names the wait the timer bounds.
    const timers = await summariesOf(ctx.services.temporal.client.workflow.getHandle(id), (e) => Boolean(e.timerStartedEventAttributes));
    expect(timers).toEqual(['approval timeout · ok']);
  });

  it('refuses a caller who may not run the plan with the 404 of a run it cannot see', async () => {
    const id = await start({ ...approvalPlan(), constraints: { max_sensitivity: 'high' } });
    await untilWaiting(id, 'ok');
    const low = await ctx.key('low-clearance', 'low');
    const anonymous = ctx.call('POST', `/v1/runs/${id}/approvals/ok`, { decision: 'approve' });
    for (const response of [await decide(id, 'ok', { decision: 'approve' }, low), await anonymous]) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    expect((await ctx.call('GET', `/v1/runs/${id}/approvals`, undefined, low)).statusCode).toBe(404);
    const lowList = (await ctx.call('GET', '/v1/approvals', undefined, low)).json() as PendingApprovals;
    expect(lowList.items.map((i) => i.workflow_id)).not.toContain(id);
    const mine = (await ctx.call('GET', '/v1/approvals', undefined, key)).json() as PendingApprovals;
    expect(mine.items.map((i) => i.workflow_id)).toContain(id);
    // Still waiting: the refused calls changed nothing.
    expect((await liveStatus(id))!.nodes.find((n) => n.id === 'ok')!.state).toBe('waiting');
    expect((await decide(id, 'ok', { decision: 'reject' }, key)).statusCode).toBe(200);
    expect((await settled(id)).state).toBe('failed');
  });
});

describe('requires_approval', () => {
  const gated = (extra: Record<string, unknown> = {}): PlanSpec => ({
    nodes: [
      { id: 'first', op: 'echo', params: {} },
      { id: 'second', op: 'echo', params: {} },
    ],
    edges: [{ from: 'first', to: 'second', kind: 'data' }],
    constraints: { requires_approval: true, approval_prompt: 'Run the migration?', ...extra },
  });

  it('holds back the first node until the gate ($run) is approved', async () => {
    const id = await start(gated());
    const status = await untilWaiting(id, '$run');
    expect(status!.waiting_for).toEqual([expect.objectContaining({ node_id: '$run', prompt: 'Run the migration?' })]);
    expect(status!.nodes.map((n) => n.state)).toEqual(['pending', 'pending']);
    // Nothing starts while it waits.
    await new Promise((r) => setTimeout(r, 500));
    expect((await liveStatus(id))!.nodes.map((n) => n.state)).toEqual(['pending', 'pending']);
    expect((await decide(id, 'first', { decision: 'approve' })).statusCode).toBe(400);
    expect((await decide(id, '$run', { decision: 'approve' })).statusCode).toBe(200);
    const final = await settled(id);
    expect(final.state).toBe('succeeded');
    expect(final.result!.approvals).toEqual([expect.objectContaining({ node_id: '$run', approved: true, by: 'approver' })]);
    expect(Date.parse(final.result!.nodes[0]!.started_at!)).toBeGreaterThanOrEqual(Date.parse(final.result!.approvals![0]!.at));
  });

  it('a rejected gate fails the run before any node starts', async () => {
    const id = await start(gated());
    await untilWaiting(id, '$run');
    expect((await decide(id, '$run', { decision: 'reject' })).statusCode).toBe(200);
    const final = await settled(id);
    expect(final.state).toBe('failed');
    expect(final.error?.type).toBe('approval_rejected');
    expect(final.result!.nodes.map((n) => n.state)).toEqual(['cancelled', 'cancelled']);
    expect(final.result!.nodes.every((n) => n.started_at === undefined)).toBe(true);
  });

  it("shows the gate's prompt with the run's inputs filled in", async () => {
    const id = await start(gated({ approval_prompt: 'Migrate {{inputs.table}} ({{inputs.rows}} rows)?' }), key, { table: 'users', rows: 1200 });
    const status = await untilWaiting(id, '$run');
    expect(status!.waiting_for).toEqual([expect.objectContaining({ node_id: '$run', prompt: 'Migrate users (1200 rows)?' })]);
    expect((await decide(id, '$run', { decision: 'approve' })).statusCode).toBe(200);
    expect((await settled(id)).state).toBe('succeeded');
  });

  it('refuses plans that misuse approvals, naming the code and field', async () => {
    const gateReadsNode = { nodes: [{ id: 'a', op: 'echo' }], constraints: { requires_approval: true, approval_prompt: 'Send {{nodes.a.output}}?' } };
    const refused = await ctx.call('POST', '/v1/plans', { payload: { kind: 'plan_graph', plan_id: uid('bad'), intent: 'bad gate', ...gateReadsNode } }, key);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused).details.issues).toEqual([expect.objectContaining({ code: 'invalid_approval', path: 'constraints.approval_prompt', message: expect.stringContaining('{{nodes.a.output}} is not a run input') })]);

    const bad = { nodes: [{ id: 'a', op: 'approval', params: { timeout: 'soon' } }], constraints: { requires_approval: 'yes' } };
    const response = await ctx.call('POST', '/v1/plans', { payload: { kind: 'plan_graph', plan_id: uid('bad'), intent: 'bad approvals', ...bad } }, key);
    expect(response.statusCode).toBe(422);
    const issues = (errorOf(response).details.issues as Array<{ code: string; path: string }>).map((i) => `${i.code} ${i.path}`);
    expect(issues).toEqual(expect.arrayContaining(['invalid_approval nodes[0].params.prompt', 'invalid_approval constraints.requires_approval']));
  });

  it('from the CLI: runs show lists the wait with the command that decides it; runs approve decides as the local operator', async () => {
    const id = await start(gated());
    await untilWaiting(id, '$run');
    const cli = (...args: string[]) => runCli(ctx, ...args);
    expect((await cli('runs', 'waiting')).stdout).toContain(`${id}  $run  "Run the migration?"`);
    const shown = await cli('runs', 'show', id);
    expect(shown.stdout).toContain(`waits     $run: "Run the migration?" for a caller who may run the plan (plangraph runs approve|reject ${id} $run)`);
    const approved = await cli('runs', 'approve', id, '$run', '--comment', 'from the terminal', '--json');
    expect(JSON.parse(approved.stdout)).toMatchObject({ node_id: '$run', approved: true, by: expect.stringMatching(/^local-operator:/), comment: 'from the terminal' });
    expect((await settled(id)).state).toBe('succeeded');
    const refused = await cli('runs', 'reject', id, '$run').catch((err: { code: number; stderr: string }) => err);
    expect(refused).toMatchObject({ code: expect.any(Number) });
    // In plangraph's words, as the run view says it (not Temporal's "completed").
    expect((refused as { stderr: string }).stderr).toContain(`run ${id} has ended (succeeded): nothing waits for approval`);
  });
});
