/**
 * Consolidation learns a reusable plan: three episodes of one job, done for three repositories,
 * become one plan with inputs and data edges, which then runs through user ops (OPS_MODULES)
 * for a fourth repository.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import type { MemoryRecord, NewEpisode, PlanGraphPayload } from '../../src/domain/records';
import type { RunStatus } from '../../src/domain/run-state';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { startPlanRun } from '../../src/runs/start-run';
import { createEpisodeStore } from '../../src/store/episodes';
import { createRecordStore } from '../../src/store/records';
import { checkoutDir } from '../fixtures/repo-ops';
import { episode } from './episodes';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** One "set up a repository and run its tests" episode, as an agent would record it. */
function setupEpisode(intent: string, url: string, branch: string, node: number): NewEpisode {
  const dir = checkoutDir(url);
  return episode(
    intent,
    [
      { id: 'clone', tool: 'repo_clone', args: { url, branch, depth: 1 }, result: { dir, head: `${branch}@0123abcd` } },
      { id: 'install', tool: 'repo_install', args: { cwd: dir, node }, result: { cwd: dir, lockfile: `${dir}/package-lock.json` }, depends_on: ['clone'] },
      { id: 'test', tool: 'repo_test', args: { cwd: dir, cmd: `cd ${dir} && npm test`, reporter: 'dot' }, depends_on: ['install'] },
    ],
    { summaries: [`Set up ${url} on branch ${branch} and run its tests`] },
  );
}

const records = () => createRecordStore(ctx.db);
const pass = () => ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50 }));

/** The active plan derived from the episodes, checking there is exactly one. */
async function activePlanOf(episodeIds: string[]): Promise<MemoryRecord & { payload: PlanGraphPayload }> {
  const found = await ctx.db.execute<{ id: string }>(sql`
    SELECT DISTINCT c.record_id AS id FROM consolidated_sources c WHERE c.kind = 'plan' AND c.episode_id = ANY(${sql.param(episodeIds)}::uuid[])`);
  expect(found.rows).toHaveLength(1);
  const record = (await records().get(found.rows[0]!.id))!;
  expect(record.status).toBe('active');
  return record as MemoryRecord & { payload: PlanGraphPayload };
}

const properties = (plan: PlanGraphPayload) => (plan.inputs_schema as { properties: Record<string, { type?: string; examples: unknown[] }> }).properties;

describe('learning a reusable plan', () => {
  it('learns one plan with inputs and data edges from three repositories, and runs it for a fourth', async () => {
    const intent = uid('setup_repo');
    const repos = ['acme/api', 'acme/web', 'acme/cli'].map((r) => `https://git.example/${uid(r)}`);
    const episodes = createEpisodeStore(ctx.db, hashEmbedder);

    // Two episodes first: the task text names the repository and the branch; both used node 20.
    const firstTwo = await episodes.insertMany([setupEpisode(intent, repos[0]!, 'main', 20), setupEpisode(intent, repos[1]!, 'develop', 20)]);
    const first = await pass();
    expect(first.created).toBeGreaterThanOrEqual(1);
    const learned = await activePlanOf(firstTwo);
    expect(learned.payload.intent).toBe(intent);
    // Episodes stored together are taken in id order: either may come first.
    const tasks = [`Set up ${repos[0]} on branch main and run its tests`, `Set up ${repos[1]} on branch develop and run its tests`];
    expect(tasks).toContain(learned.payload.description);
    expect([...learned.payload.examples!].sort()).toEqual([...tasks].sort());
    expect(learned.payload.nodes.map((n) => n.params)).toEqual([
      { url: '{{inputs.url}}', branch: '{{inputs.branch}}', depth: 1 },
      { cwd: '{{nodes.clone.output.dir}}', node: 20 },
      { cwd: '{{nodes.install.output.cwd}}', cmd: 'cd {{nodes.install.output.cwd}} && npm test', reporter: 'dot' },
    ]);
    expect(learned.payload.edges).toEqual([
      { from: 'clone', to: 'install', kind: 'data' },
      { from: 'install', to: 'test', kind: 'data' },
    ]);
    const inputs = properties(learned.payload);
    expect(Object.keys(inputs).sort()).toEqual(['branch', 'url']);
    expect(inputs.url).toEqual({ type: 'string', examples: expect.arrayContaining([repos[0], repos[1]]) });
    expect(inputs.branch).toEqual({ type: 'string', examples: expect.arrayContaining(['main', 'develop']) });

    // A third twin, for another repository, that used another Node version: that arg becomes an
    // input, in a new revision. No task names it, but it changed where the repository did (it may
    // go with the repository), so it is required: no earlier episode's version is run unasked.
    const [third] = await episodes.insertMany([setupEpisode(intent, repos[2]!, 'release', 22)]);
    const second = await pass();
    expect(second.revised).toBeGreaterThanOrEqual(1);
    const revised = await activePlanOf([...firstTwo, third!]);
    expect(revised.id).not.toBe(learned.id);
    expect(revised.payload.plan_id).toBe(learned.payload.plan_id);
    expect(revised.payload.version).toBe('2');
    expect(revised.payload.nodes[1]!.params).toEqual({ cwd: '{{nodes.clone.output.dir}}', node: '{{inputs.node}}' });
    expect(properties(revised.payload).node).toEqual({ type: 'integer', examples: [20, 22] });
    expect((revised.payload.inputs_schema as { required: string[] }).required).toEqual(['branch', 'node', 'url']);
    const old = (await records().get(learned.id))!;
    expect(old).toMatchObject({ status: 'superseded', revision: 2 });

    // The first twin's task again, on Node 22: the version varied where the task did not, so it
    // is a knob, and the next revision defaults it to the version the plan used first.
    const [firstRepo, firstBranch] = learned.payload.description === tasks[0] ? [repos[0]!, 'main'] : [repos[1]!, 'develop'];
    const [fourthEpisode] = await episodes.insertMany([setupEpisode(intent, firstRepo, firstBranch, 22)]);
    expect((await pass()).revised).toBeGreaterThanOrEqual(1);
    const plan = await activePlanOf([...firstTwo, third!, fourthEpisode!]);
    expect(plan.payload.version).toBe('3');
    expect(properties(plan.payload).node).toEqual({ type: 'integer', examples: [20, 22], default: 20 });
    expect(plan.payload.metrics.execution_count).toBe(4);
    expect(plan.relations).toEqual(
      expect.arrayContaining([
        { predicate: 'supersedes', target_id: revised.id, weight: 1 },
        ...[...firstTwo, third!, fourthEpisode!].map((id) => ({ predicate: 'derived_from', target_id: id, weight: 1 })),
      ]),
    );
    expect((await records().audit(plan.id)).map((a) => a.action)).toEqual(['create']);

    // A pass with nothing new changes nothing.
    const idle = await pass();
    expect(idle.revised).toBe(0);
    expect((await activePlanOf([third!])).id).toBe(plan.id);

    // The learned plan runs for a fourth repository: every output derives from the new inputs.
    const fourth = `https://git.example/${uid('acme/docs')}`;
    const run = async (inputs: Record<string, unknown>) =>
      (await (await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record: plan, inputs })).result()) as RunStatus;
    const [status, withDefault] = await ctx.withWorker(() => Promise.all([run({ url: fourth, branch: 'hotfix', node: 18 }), run({ url: fourth, branch: 'hotfix' })]));
    expect(withDefault.state).toBe('succeeded');
    expect(withDefault.nodes.find((n) => n.id === 'install')!.output).toMatchObject({ node: '20' });
    expect(status.state).toBe('succeeded');
    const output = Object.fromEntries(status.nodes.map((n) => [n.id, n.output]));
    const dir = checkoutDir(fourth);
    expect(output.clone).toMatchObject({ dir, head: expect.stringMatching(/^hotfix@/) });
    expect(output.install).toMatchObject({ cwd: dir, node: '18' });
    expect(output.test).toEqual({ ran: `cd ${dir} && npm test`, cwd: dir, reporter: 'dot', passed: true });
    const text = JSON.stringify(output);
    for (const repo of repos) {
      expect(text).not.toContain(repo);
      expect(text).not.toContain(checkoutDir(repo));
    }
  });

  it('gives a request token the episodes made up to each run of the learned plan, never an old one', async () => {
    const intent = uid('refund_ticket');
    // The agent made up an idempotency key for the refund and quoted it in the note it left.
    const refund = (ticket: string, key: string) =>
      episode(
        intent,
        [
          { id: 'lookup', tool: 'echo', args: { ticket }, result: { ticket } },
          { id: 'refund', tool: 'echo', args: { ticket, idempotency_key: key }, depends_on: ['lookup'] },
          { id: 'note', tool: 'echo', args: { ticket, text: `refunded under ${key}` }, depends_on: ['refund'] },
        ],
        { summaries: [`Refund the payment on ticket ${ticket}`] },
      );
    const ids = await createEpisodeStore(ctx.db, hashEmbedder).insertMany([
      refund(uid('T'), 'c0ffee00-1234-4abc-8def-0123456789ab'),
      refund(uid('T'), 'facade00-5678-4abc-9def-ba9876543210'),
    ]);
    await pass();
    const plan = await activePlanOf(ids);
    expect(plan.payload.nodes.map((n) => n.params)).toEqual([
      { ticket: '{{inputs.ticket}}' },
      { ticket: '{{nodes.lookup.output.ticket}}', idempotency_key: '{{run.id}}' },
      { ticket: '{{nodes.lookup.output.ticket}}', text: 'refunded under {{run.id}}' },
    ]);
    expect(Object.keys(properties(plan.payload))).toEqual(['ticket']);
    const run = async () => {
      const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record: plan, inputs: { ticket: 'T-9' } });
      return { runId: handle.firstExecutionRunId, status: (await handle.result()) as RunStatus };
    };
    const runs = await ctx.withWorker(() => Promise.all([run(), run()]));
    for (const { runId, status } of runs) {
      expect(status.state).toBe('succeeded');
      expect(status.nodes.find((n) => n.id === 'refund')!.output).toMatchObject({ ticket: 'T-9', idempotency_key: runId });
      expect(status.nodes.find((n) => n.id === 'note')!.output).toMatchObject({ text: `refunded under ${runId}` });
    }
    expect(runs[0]!.runId).not.toBe(runs[1]!.runId);
  });

  it('replays literals with control edges when generalisation is off', async () => {
    const intent = uid('literal');
    const url = `https://git.example/${uid('acme/lit')}`;
    const [id] = await createEpisodeStore(ctx.db).insertMany([setupEpisode(intent, url, 'main', 20)]);
    await ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50 }), { CONSOLIDATION_GENERALISE: false });
    const plan = await activePlanOf([id!]);
    expect(plan.payload.nodes[0]!.params).toEqual({ url, branch: 'main', depth: 1 });
    expect(plan.payload.edges.every((e) => e.kind === 'control')).toBe(true);
    expect(plan.payload.inputs_schema).toEqual({});
  });

  it('regeneralizes stored literal plans into new revisions, idempotently, counted in the pass report', async () => {
    const intent = uid('backfill');
    const urls = [uid('acme/old-a'), uid('acme/old-b')].map((r) => `https://git.example/${r}`);
    const ids = await createEpisodeStore(ctx.db).insertMany([setupEpisode(intent, urls[0]!, 'main', 20), setupEpisode(intent, urls[1]!, 'main', 22)]);
    await ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50 }), { CONSOLIDATION_GENERALISE: false });
    const literal = await activePlanOf(ids);
    expect(literal.payload.inputs_schema).toEqual({});

    const report = await ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50, regeneralize: true }));
    expect(report.revised).toBeGreaterThanOrEqual(1);
    const plan = await activePlanOf(ids);
    expect(plan.id).not.toBe(literal.id);
    expect(plan.payload.version).toBe('2');
    expect(Object.keys(properties(plan.payload)).sort()).toEqual(['branch', 'node', 'url']);
    expect(plan.payload.edges.filter((e) => e.kind === 'data')).toHaveLength(2);
    expect(plan.payload.metrics.execution_count).toBe(2);
    expect((await records().get(literal.id))!.status).toBe('superseded');

    // Run again: every plan is already learned by these rules.
    const again = await ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50, regeneralize: true }));
    expect(again.revised).toBe(0);
    expect((await activePlanOf(ids)).id).toBe(plan.id);
  });

  it('keeps one active plan with exact counters when racing passes link and revise twins', async () => {
    const intent = uid('race_twins');
    const ids = await createEpisodeStore(ctx.db).insertMany(
      Array.from({ length: 30 }, (_, i) => setupEpisode(intent, `https://git.example/${uid('acme/r')}`, i % 2 ? 'main' : 'develop', 12 + (i % 5))),
    );
    await ctx.withWorker(() =>
      Promise.all([
        runConsolidationOnce(ctx.client, ctx.config, { pageSize: 4 }),
        runConsolidationOnce(ctx.client, ctx.config, { pageSize: 7 }),
      ]),
    );
    const plan = await activePlanOf(ids);
    expect(plan.payload.metrics.execution_count).toBe(30);
    expect(plan.payload.nodes[1]!.params.node).toBe('{{inputs.node}}');
    const sources = await ctx.db.execute(sql`SELECT episode_id FROM consolidated_sources WHERE kind = 'plan' AND record_id = ${plan.id}::uuid`);
    expect(sources.rows).toHaveLength(30);
    const active = await ctx.db.execute(sql`SELECT id FROM memory_records WHERE type = 'plan_graph' AND status = 'active' AND label = ${intent}`);
    expect(active.rows).toHaveLength(1);
  });
});
