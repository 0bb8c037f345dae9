/**
 * The whole loop through the TypeScript client against a listening API, a real worker, Temporal
 * and Postgres: episode → consolidation → intent → run → metrics updated → reinforce → stats.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlangraphClient, PlangraphError, type PlangraphClient } from '../../src/client';
import { createApiTestContext, type ApiTestContext } from './api-harness';
import { uid } from './harness';

let ctx: ApiTestContext;
let client: PlangraphClient;
let anonymous: PlangraphClient;
beforeAll(async () => {
  ctx = await createApiTestContext();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  client = createPlangraphClient({ baseUrl, apiKey: await ctx.key(uid('agent'), 'low') });
  anonymous = createPlangraphClient({ baseUrl });
});
afterAll(() => ctx?.close());

/** The value of one Prometheus sample in a /metrics text. */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no sample ${name} in:\n${text}`);
  return Number(line.slice(name.length + 1));
}

describe('the agent loop over HTTP with the TypeScript client', () => {
  it('turns an episode into a plan, runs it for an intent, counts it, reinforces it and reports it', async () => {
    const scope = uid('loop');
    const intent = `book a meeting room ${scope}`;
    expect((await client.health()).status).toBe('ok');

    // 1. An agent reports what it did: a 3-step tool graph.
    const episode = await client.submitEpisode({
      sensitivity: 'low',
      scope,
      payload: {
        kind: 'episodic',
        outcome: 'success',
        timeline: [
          { t: '2024-05-01T10:00:00Z', event_kind: intent },
          { t: '2024-05-01T10:00:03Z', event_kind: 'done' },
        ],
        tool_graph: [
          { id: 'find', tool: 'echo', args: { room: 'any' } },
          { id: 'hold', tool: 'noop', depends_on: ['find'] },
          { id: 'confirm', tool: 'echo', args: { ok: true }, depends_on: ['hold'] },
        ],
      },
    });

    await ctx.withWorker(async () => {
      // 2. Consolidation distils it into a plan graph.
      const pass = await client.consolidate();
      expect(pass.created).toBe(1);
      const found = await client.retrieve({ task_descriptor: intent, trust: { max_sensitivity: 'low', authenticated: true, scopes: [scope] } });
      const plan = found.candidates[0]!.record;
      expect(found.candidates).toHaveLength(1);
      expect('relations' in plan && plan.relations).toEqual([expect.objectContaining({ predicate: 'derived_from', target_id: episode.id })]);
      const before = await client.getPlan(plan.id);
      expect(before.record.type === 'plan_graph' && 'payload' in before.record && before.record.payload.kind === 'plan_graph' && before.record.payload.metrics.execution_count).toBe(1);
      const metricsBefore = await client.metrics();

      // 3. An agent asks for the task: the plan is picked and run.
      const started = await client.submitIntent({ task_descriptor: intent, inputs: {}, trust: { scopes: [scope] }, wait: true });
      expect(started).toMatchObject({ plan_id: plan.id, selected_by: 'retrieval', existing: false, run: { state: 'succeeded' } });
      expect(started.run?.result?.nodes.map((n) => [n.id, n.op, n.state])).toEqual([
        ['find', 'echo', 'succeeded'],
        ['hold', 'noop', 'succeeded'],
        ['confirm', 'echo', 'succeeded'],
      ]);
      const run = await client.getRun(started.workflow_id);
      expect(run.record).toMatchObject({ status: 'succeeded', plan_id: plan.id });
      const listed = await client.listRuns({ plan_id: plan.id });
      expect(listed.items.map((r) => [r.workflow_id, r.state])).toEqual([[started.workflow_id, 'succeeded']]);
      const confirm = await client.getRunNode(started.workflow_id, 'confirm');
      expect(confirm).toMatchObject({ node_id: 'confirm', op: 'echo', state: 'succeeded' });
      expect(await client.whoami()).toMatchObject({ max_sensitivity: 'low', authenticated: true });
      expect((await client.getEpisode(episode.id)).redacted).toBe(false);

      // 4. The run is counted once in the plan's metrics and in /metrics.
      const after = await client.getPlan(plan.id);
      const metrics = after.record.type === 'plan_graph' && 'payload' in after.record && after.record.payload.kind === 'plan_graph' ? after.record.payload.metrics : undefined;
      expect(metrics).toMatchObject({ execution_count: 2, failure_rate: 0 });
      const metricsAfter = await client.metrics();
      expect(sample(metricsAfter, 'plangraph_runs_total{status="succeeded"}')).toBe(sample(metricsBefore, 'plangraph_runs_total{status="succeeded"}') + 1);
      expect(sample(metricsAfter, 'plangraph_plan_reuse_frequency')).toBe(2);
      expect(sample(metricsAfter, 'plangraph_consolidation_plans_created_total')).toBe(1);
      expect(sample(metricsAfter, 'plangraph_records{type="episodic"}')).toBe(1);

      // 5. The agent reinforces the plan that served it.
      const reinforced = await client.reinforce(plan.id, { reason: 'worked' });
      expect(reinforced.salience).toBeCloseTo(0.1);
      expect(Date.parse(reinforced.last_reinforced_at)).toBeGreaterThanOrEqual(Date.parse(plan.last_reinforced_at));
      expect(await client.diagram(plan.id)).toContain('flowchart');

      // 6. Stats agree with all of it.
      const stats = await client.stats();
      expect(stats).toMatchObject({
        plan_reuse_frequency: 2,
        active_plans: 1,
        records: { episodic: 1, plan_graph: 1, competence: 0 },
        runs: { succeeded: 1, failed: 0, total: 1 },
        consolidation: { passes: 1, created: 1 },
      });
    });
  });

  it('revises plans: supersede, fork, contest, retract and merge, each a method of the client', async () => {
    const plan = (ops: string[]) => ({ intent: uid('client revisions'), plan_id: uid('plan'), nodes: ops.map((op, i) => ({ id: `n${i}`, op })), edges: [] });
    const first = (await client.createPlan({ payload: plan(['noop']) })).record;
    const second = await client.supersedePlan(first.id, { expected_revision: first.revision, payload: plan(['noop', 'echo']), reason: 'an echo too' });
    expect(second.affected).toEqual([expect.objectContaining({ id: first.id, status: 'superseded' })]);
    expect((await client.getPlan(first.id)).superseded_by).toBe(second.record.id);
    expect(await client.getPlan(second.record.id)).not.toHaveProperty('superseded_by');
    const fork = (await client.forkPlan(second.record.id, { expected_revision: second.record.revision, payload: plan(['echo']) })).record;
    expect(fork.relations).toEqual(expect.arrayContaining([expect.objectContaining({ predicate: 'forked_from', target_id: second.record.id })]));
    const contested = (await client.contestPlan(fork.id, { expected_revision: fork.revision, reason: 'echoes the wrong thing' })).record;
    expect(contested).toMatchObject({ status: 'active', tags: expect.arrayContaining(['contested']) });
    const merged = await client.mergePlans({
      sources: [{ id: second.record.id, expected_revision: second.record.revision }, { id: contested.id, expected_revision: contested.revision }],
      payload: plan(['noop', 'echo', 'noop']),
    });
    expect(merged.affected.map((a) => a.id).sort()).toEqual([second.record.id, contested.id].sort());
    // A chain of replacements ends at the active plan; a retracted end names none.
    expect((await client.getPlan(first.id)).superseded_by).toBe(merged.record.id);
    const retracted = (await client.retractPlan(merged.record.id, { expected_revision: merged.record.revision, reason: 'not needed' })).record;
    expect(retracted.status).toBe('retracted');
    expect(await client.getPlan(first.id)).not.toHaveProperty('superseded_by');
    await expect(client.retractPlan(merged.record.id, { expected_revision: merged.record.revision })).rejects.toMatchObject({ status: 409 });
  });

  it('answers errors as PlangraphError with the API’s code and details', async () => {
    const error = await anonymous.submitIntent({ task_descriptor: 'x', trust: { max_sensitivity: 'hyper' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlangraphError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    const missing = await anonymous.getRun(uid('nope')).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });
});
