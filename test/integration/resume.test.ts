/**
 * POST /v1/runs/:id/resume over the real API, a real worker, Temporal and Postgres: the new run
 * reruns exactly the failed part (op invocations counted in a file), reuses the rest, links to
 * the old run, and both count in the metrics; refusals change nothing.
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlangraphClient, PlangraphError } from '../../src/client';
import type { IntentResponse, RunView } from '../../src/intents/schemas';
import type { ResumeResponse } from '../../src/runs/resume-run';
import type { RunList } from '../../src/store/run-list';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';
import { metricsOf, until } from './executor-helpers';
import { startFileWorker, uid } from './harness';
import { runCli } from './cli-process';
import { createResumer } from '../../src/runs/resume-run';
import { startPlanRun } from '../../src/runs/start-run';
import { createIntentComponents } from '../../src/intents/wiring';
import { DomainError } from '../../src/domain/errors';
import { storePlan, type PlanSpec } from './plans';

let ctx: ApiTestContext;
let stopWorker: () => Promise<void>;
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'plangraph-resume-'));
beforeAll(async () => {
  ctx = await createApiTestContext();
  stopWorker = await startFileWorker(ctx);
  key = await ctx.key('resumer', 'high');
});
afterAll(async () => {
  await stopWorker?.();
  await ctx?.close();
});

async function start(spec: PlanSpec) {
  const plan = await storePlan(ctx.services.records, { intent: uid('resume plan'), ...spec });
  const response = await ctx.call('POST', '/v1/intents', { task_descriptor: 'run it', inputs: { word: 'hi' }, plan_id: plan.id }, key);
  expect(response.statusCode, response.body).toBe(202);
  const started = response.json() as IntentResponse;
  return { plan, workflowId: started.workflow_id, runId: started.run_id };
}

async function settled(workflowId: string): Promise<RunView> {
  await ctx.services.temporal.client.workflow.getHandle(workflowId).result().catch(() => undefined);
  const response = await ctx.call('GET', `/v1/runs/${workflowId}`, undefined, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as RunView;
}

/** Resumes as `apiKey` (null: anonymous). */
const resume = (workflowId: string, apiKey: string | null = key) => ctx.call('POST', `/v1/runs/${workflowId}/resume`, {}, apiKey ?? undefined);

/** Executions per node id recorded by the `logged` and `until_file` ops in this run's log. */
function invocations(log: string): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!existsSync(log)) return counts;
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const node = line.split('\t')[1]!;
    counts[node] = (counts[node] ?? 0) + 1;
  }
  return counts;
}

/**
 * a → b → gate → d, e independent, and f a control successor of b; gate fails until its file
 * exists. Under `continue`: a, b, e, f succeed, gate fails, d is skipped.
 */
function repairablePlan(name: string): { spec: PlanSpec; log: string; marker: string } {
  const log = join(dir, `${name}.log`);
  const marker = join(dir, `${name}.ready`);
  const logged = (id: string) => ({ id, op: 'logged', params: { file: log } });
  return {
    log,
    marker,
    spec: {
      nodes: [
        { ...logged('a'), params: { file: log, ms: 0 } },
        logged('b'),
        { id: 'gate', op: 'until_file', params: { file: marker, log } },
        { id: 'd', op: 'echo', params: { from_b: '{{nodes.b.output.node}}', word: '{{inputs.word}}', key: '{{run.id}}' } },
        logged('e'),
        logged('f'),
      ],
      edges: [
        { from: 'a', to: 'b', kind: 'data' },
        { from: 'b', to: 'gate', kind: 'data' },
        { from: 'gate', to: 'd', kind: 'data' },
        { from: 'b', to: 'd', kind: 'data' },
        { from: 'b', to: 'f', kind: 'control' },
      ],
      constraints: { failure_policy: 'continue' },
    },
  };
}

describe('resume', () => {
  it('reruns exactly the failed node and what depends on it, reusing the succeeded outputs', async () => {
    const { spec, log, marker } = repairablePlan(uid('repair'));
    const { plan, workflowId: oldId, runId: oldRunId } = await start(spec);
    const old = await settled(oldId);
    expect(old.state).toBe('failed');
    expect(Object.fromEntries(old.result!.nodes.map((n) => [n.id, n.state]))).toEqual({ a: 'succeeded', b: 'succeeded', gate: 'failed', d: 'skipped', e: 'succeeded', f: 'succeeded' });
    expect(invocations(log)).toEqual({ a: 1, b: 1, gate: 1, e: 1, f: 1 });

    writeFileSync(marker, 'ok');
    const response = await resume(oldId);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as ResumeResponse;
    expect(body).toMatchObject({ resumed_from: oldId, plan_id: plan.id, plan_revision: plan.revision, reused: ['a', 'b', 'e', 'f'], rerun: ['gate', 'd'] });

    const resumed = await settled(body.workflow_id);
    expect(resumed.state).toBe('succeeded');
    const nodes = Object.fromEntries(resumed.result!.nodes.map((n) => [n.id, n]));
    for (const id of ['a', 'b', 'e', 'f']) expect(nodes[id]).toMatchObject({ state: 'succeeded', reused_from: oldId });
    for (const id of ['gate', 'd']) expect(nodes[id]!.reused_from).toBeUndefined();
    // Reused outputs flow into the rerun nodes, and the old run's inputs are the new run's; so is
    // its `{{run.id}}`, so a call the old run may have made goes again under the same key.
    expect(nodes.d!.output).toMatchObject({ from_b: 'b', word: 'hi', key: oldRunId });
    expect(body.run_id).not.toBe(oldRunId);
    expect(nodes.a!.output).toEqual(old.result!.nodes.find((n) => n.id === 'a')!.output);
    // Only the failed part ran again: one more execution of gate, none of a, b, e, f.
    expect(invocations(log)).toEqual({ a: 1, b: 1, gate: 2, e: 1, f: 1 });

    expect(resumed.result!.resumed_from).toBe(oldId);
    expect(resumed.record).toMatchObject({ resumed_from: oldId, status: 'succeeded', plan_revision: plan.revision });
    expect(old.record!.resumed_from).toBeNull();
    const metrics = await until(() => metricsOf(ctx.services.db, plan.id), (m) => m.counters.successes + m.counters.failures === 2, 'both runs counted');
    expect(metrics.counters).toMatchObject({ successes: 1, failures: 1 });
  });

  it('reruns cancelled nodes of a fail_fast run too', async () => {
    const log = join(dir, `${uid('ff')}.log`);
    const marker = join(dir, `${uid('ff')}.ready`);
    const { workflowId } = await start({
      nodes: [
        { id: 'ok', op: 'logged', params: { file: log } },
        { id: 'gate', op: 'until_file', params: { file: marker, log } },
        { id: 'after', op: 'logged', params: { file: log } },
      ],
      edges: [
        { from: 'ok', to: 'gate', kind: 'data' },
        { from: 'gate', to: 'after', kind: 'control' },
      ],
    });
    const old = await settled(workflowId);
    expect(old.result!.nodes.map((n) => `${n.id}:${n.state}`).sort()).toEqual(['after:cancelled', 'gate:failed', 'ok:succeeded']);
    writeFileSync(marker, 'ok');
    const body = (await resume(workflowId)).json() as ResumeResponse;
    expect(body).toMatchObject({ reused: ['ok'], rerun: ['gate', 'after'] });
    expect((await settled(body.workflow_id)).state).toBe('succeeded');
    expect(invocations(log)).toEqual({ ok: 1, gate: 2, after: 1 });
  });

  it('refuses to resume a running run, a succeeded one, a retracted plan and a caller who may not run it, changing nothing', async () => {
    const slow = await start({ nodes: [{ id: 'wait', op: 'timed', params: { ms: 60_000 }, policy: { heartbeat_timeout: '5s' } }] });
    await until(() => ctx.call('GET', `/v1/runs/${slow.workflowId}`, undefined, key).then((r) => (r.json() as RunView).status?.nodes[0]?.state), (s) => s === 'running', 'slow running');
    const runsBefore = await ctx.count('plan_runs');
    const running = await resume(slow.workflowId);
    expect(running.statusCode).toBe(409);
    expect(errorOf(running).details).toMatchObject({ reason: 'still_running' });
    await ctx.call('POST', `/v1/runs/${slow.workflowId}/cancel`, {}, key);

    const fine = await start({ nodes: [{ id: 'x', op: 'echo', params: {} }] });
    expect((await settled(fine.workflowId)).state).toBe('succeeded');
    const succeeded = await resume(fine.workflowId);
    expect(succeeded.statusCode).toBe(409);
    expect(errorOf(succeeded).details).toMatchObject({ reason: 'succeeded' });

    const failed = await start({ nodes: [{ id: 'boom', op: 'fail', params: {} }], constraints: { max_sensitivity: 'high' } });
    expect((await settled(failed.workflowId)).state).toBe('failed');
    const low = await ctx.key('low-clearance', 'low');
    expect((await resume(failed.workflowId, low)).statusCode).toBe(404);
    expect((await resume(failed.workflowId, null)).statusCode).toBe(404);
    expect((await resume(uid('no-such-run'))).statusCode).toBe(404);

    await ctx.services.revisions.retract(failed.plan.id, { expected_revision: failed.plan.revision, reason: 'test' }, { actor: 'test' });
    const retracted = await resume(failed.workflowId);
    expect(retracted.statusCode).toBe(409);
    expect(errorOf(retracted).code).toBe('plan_retracted');
    await settled(slow.workflowId);
    // Nothing was started by any refusal (the slow run's own row was already there).
    expect(await ctx.count('plan_runs')).toBe(runsBefore + 2);
  });

  it('refuses a run that ran partitioned (409 partitioned), starting nothing', async () => {
    const nodes = ['a', 'b', 'c', 'd'].map((id) => ({ id, op: id === 'c' ? 'fail' : 'noop', params: {} }));
    const plan = await storePlan(ctx.services.records, { intent: uid('resume partitioned'), nodes, edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id, kind: 'control' as const })) });
    const opener = { runs: ctx.services.runs, registry: ctx.services.registry };
    const handle = await startPlanRun({ client: ctx.services.temporal.client, taskQueue: ctx.services.config.TEMPORAL_TASK_QUEUE, record: plan, opener, partitionNodes: 2 });
    expect((await settled(handle.workflowId)).state).toBe('failed');
    const before = await ctx.count('plan_runs');
    const refused = await resume(handle.workflowId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(errorOf(refused).details).toMatchObject({ reason: 'partitioned', plan_id: plan.id });
    expect(errorOf(refused).message).toContain('4 nodes');
    expect(await ctx.count('plan_runs')).toBe(before);
  });

  it('refuses (413) when the outputs to reuse would not fit in the new run\'s start payload', async () => {
    const { workflowId } = await start({
      nodes: [{ id: 'big', op: 'echo', params: { text: 'x'.repeat(500) } }, { id: 'boom', op: 'fail', params: {} }],
      edges: [{ from: 'big', to: 'boom', kind: 'data' }],
    });
    await settled(workflowId);
    const { services } = ctx;
    const tight = createResumer({
      client: services.temporal.client,
      config: { ...services.config, RUN_INPUT_LIMIT_BYTES: 300 },
      records: services.records,
      viewer: createIntentComponents(services).viewer,
      knownOps: new Set(services.registry.keys()),
    });
    const before = await ctx.count('plan_runs');
    const refused = await tight.resume(workflowId, { name: 'resumer', authenticated: true, max_sensitivity: 'high' }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'payload_too_large', details: { field: 'reused', limit_bytes: 300 } });
    expect(await ctx.count('plan_runs')).toBe(before);
  });

  it('resumes through the TypeScript client; a refusal is a PlangraphError naming the reason', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const client = createPlangraphClient({ baseUrl: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`, apiKey: key });
    const { workflowId } = await start({ nodes: [{ id: 'boom', op: 'fail', params: {} }] });
    await settled(workflowId);
    const resumed = await client.resumeRun(workflowId);
    expect(resumed).toMatchObject({ resumed_from: workflowId, reused: [], rerun: ['boom'] });
    expect((await client.getRun(resumed.workflow_id)).record?.resumed_from ?? (await settled(resumed.workflow_id)).record?.resumed_from).toBe(workflowId);
    const refused = await client.resumeRun(uid('missing')).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PlangraphError);
    expect(refused).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('from the CLI: runs resume prints what is reused and rerun; runs show names the run it resumes', async () => {
    const { spec, marker } = repairablePlan(uid('cli'));
    const { workflowId } = await start(spec);
    await settled(workflowId);
    writeFileSync(marker, 'ok');
    const { stdout } = await runCli(ctx, 'runs', 'resume', workflowId, '--json');
    const body = JSON.parse(stdout) as ResumeResponse;
    expect(body).toMatchObject({ resumed_from: workflowId, reused: ['a', 'b', 'e', 'f'], rerun: ['gate', 'd'] });
    await settled(body.workflow_id);
    const shown = await runCli(ctx, 'runs', 'show', body.workflow_id);
    expect(shown.stdout).toContain(`resumes   ${workflowId}`);
    expect(shown.stdout).toMatch(new RegExp(`succeeded +a \\[logged\\] — reused from ${workflowId}`));
    const refused = await runCli(ctx, 'runs', 'resume', body.workflow_id).catch((err: { stderr: string }) => err);
    expect((refused as { stderr: string }).stderr).toContain('succeeded: there is nothing to resume');
  });

  it('from the CLI: runs cancel cancels a running run, runs list finds it by plan and state, runs resume reruns it', async () => {
    const { plan, workflowId } = await start({ nodes: [{ id: 'wait', op: 'timed', params: { ms: 60_000 }, policy: { heartbeat_timeout: '5s' } }] });
    await until(() => ctx.call('GET', `/v1/runs/${workflowId}`, undefined, key).then((r) => (r.json() as RunView).status?.nodes[0]?.state), (s) => s === 'running', 'wait running');
    const running = await runCli(ctx, 'runs', 'list', '--plan-id', plan.id);
    expect(running.stdout).toMatch(new RegExp(`running +${workflowId}  resume plan`));
    expect(JSON.parse((await runCli(ctx, 'runs', 'cancel', workflowId, '--json')).stdout)).toMatchObject({ workflow_id: workflowId, cancel_requested: true });
    expect((await settled(workflowId)).state).toBe('cancelled');
    const listed = await until(
      () => runCli(ctx, 'runs', 'list', '--plan-id', plan.id, '--state', 'cancelled', '--json').then((r) => JSON.parse(r.stdout) as RunList),
      (list) => list.items.length === 1,
      'the cancelled run recorded',
    );
    expect(listed.items[0]).toMatchObject({ workflow_id: workflowId, state: 'cancelled', error: { type: 'cancelled' } });
    const again = await runCli(ctx, 'runs', 'cancel', workflowId).catch((err: { code: number; stderr: string }) => err);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining(`run ${workflowId} is already cancelled`) });
    const badFlag = await runCli(ctx, 'runs', 'list', '--since', 'yesterday').catch((err: { code: number; stderr: string }) => err);
    expect(badFlag).toMatchObject({ code: 1, stderr: expect.stringContaining('--since: Invalid ISO datetime, got "yesterday"') });
    const resumed = JSON.parse((await runCli(ctx, 'runs', 'resume', workflowId, '--json')).stdout) as ResumeResponse;
    expect(resumed).toMatchObject({ resumed_from: workflowId, rerun: ['wait'] });
    await ctx.call('POST', `/v1/runs/${resumed.workflow_id}/cancel`, {}, key);
  });
});
