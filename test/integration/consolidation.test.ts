import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/api/server';
import { createServices } from '../../src/services';
import { createPlanConsolidator } from '../../src/consolidation/plan-consolidator';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import { createDb } from '../../src/db/client';
import type { NewEpisode, PlanGraphPayload } from '../../src/domain/records';
import { consolidationProgressQuery, type ConsolidationProgress } from '../../src/domain/consolidation-progress';
import { createEmbedder, hashEmbedder } from '../../src/embeddings/embedder';
import { createEpisodeStore } from '../../src/store/episodes';
import { createRecordStore, embeddingText } from '../../src/store/records';
import { episode, type Tool } from './episodes';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const chain3 = (prefix: string): Tool[] => [
  { id: 'a', tool: `${prefix}_fetch` },
  { id: 'b', tool: `${prefix}_parse`, depends_on: ['a'] },
  { id: 'c', tool: `${prefix}_store`, depends_on: ['b'] },
];

const store = (episodes: NewEpisode[]) => createEpisodeStore(ctx.db, hashEmbedder).insertMany(episodes);
const pass = () => ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50 }));

/** Plan graphs derived from the given episodes. */
async function plansFrom(episodeIds: string[]) {
  const result = await ctx.db.execute<{ id: string }>(sql`
    SELECT DISTINCT m.source_id AS id FROM memory_relations m JOIN memory_records r ON r.id = m.source_id
     WHERE m.predicate = 'derived_from' AND r.type = 'plan_graph' AND m.target_id = ANY(${sql.param(episodeIds)}::uuid[])`);
  const records = createRecordStore(ctx.db);
  return Promise.all(result.rows.map(async (r) => (await records.get(r.id))!));
}

const planOf = (record: { payload: unknown }) => record.payload as PlanGraphPayload;

describe('plan graph consolidation', () => {
  it('turns a 3-node episode into a 3-node plan with 2 control edges and its intent, and a second pass creates nothing', async () => {
    const intent = uid('setup');
    const [id] = await store([episode(intent, chain3(uid('t')), { sensitivity: 'medium', scope: 'team-x' })]);
    const first = await pass();
    expect(first.created).toBeGreaterThanOrEqual(1);

    const [plan, ...more] = await plansFrom([id!]);
    expect(more).toHaveLength(0);
    const payload = planOf(plan!);
    expect(payload.intent).toBe(intent);
    expect(payload.version).toBe('1');
    expect(payload.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    expect(payload.edges).toEqual([
      { from: 'a', to: 'b', kind: 'control' },
      { from: 'b', to: 'c', kind: 'control' },
    ]);
    expect(plan).toMatchObject({ confidence: 0.7, sensitivity: 'medium', scope: 'team-x', tags: ['consolidated', 'auto-plangraph'] });
    expect(plan!.relations).toEqual([{ predicate: 'derived_from', target_id: id, weight: 1 }]);
    expect(payload.metrics).toMatchObject({ execution_count: 1, failure_rate: 0, avg_latency_ms: 1500 });
    expect((await createRecordStore(ctx.db).audit(plan!.id)).map((a) => a.action)).toEqual(['create']);

    const second = await pass();
    expect(second.skipped).toBeGreaterThanOrEqual(1);
    const after = await plansFrom([id!]);
    expect(after.map((p) => p.id)).toEqual([plan!.id]);
    expect(planOf(after[0]!).metrics.execution_count).toBe(1);
  });

  it('ignores a 2-node episode', async () => {
    const [id] = await store([episode(uid('small'), chain3(uid('t')).slice(0, 2))]);
    const result = await pass();
    expect(result.scanned).toBeGreaterThanOrEqual(1);
    expect(await plansFrom([id!])).toHaveLength(0);
  });

  it('names a plan after the first event kind that names the task, else after its tools', async () => {
    const intent = uid('real');
    const [unnamedTools, chatTools] = [uid('t'), uid('t')];
    const [named, unnamed, chat] = await store([
      episode('', chain3(uid('t')), { kinds: ['', '   ', 'user_message', intent] }),
      episode('', chain3(unnamedTools), { kinds: ['', ' '] }),
      episode('', chain3(chatTools), { kinds: ['user_message', 'assistant_message', 'tool_call'] }),
    ]);
    await pass();
    expect(planOf((await plansFrom([named!]))[0]!).intent).toBe(intent);
    expect(planOf((await plansFrom([unnamed!]))[0]!).intent).toBe(`${unnamedTools}_fetch_${unnamedTools}_parse_${unnamedTools}_store`);
    expect(planOf((await plansFrom([chat!]))[0]!).intent).toBe(`${chatTools}_fetch_${chatTools}_parse_${chatTools}_store`);
  });

  it('consolidates a failed episode with failure_rate 1', async () => {
    const [id] = await store([episode(uid('broken'), chain3(uid('t')), { outcome: 'failure' })]);
    await pass();
    const [plan] = await plansFrom([id!]);
    expect(planOf(plan!).metrics).toMatchObject({ execution_count: 1, failure_rate: 1 });
  });

  it('writes the embedding of the plan document: intent, description and task phrasings', async () => {
    const intent = uid('embed');
    const task = `Fetch the ${uid('feed')} feed and store it`;
    const [id] = await store([episode(intent, chain3(uid('t')), { summaries: [task] })]);
    await pass();
    const [plan] = await plansFrom([id!]);
    expect(planOf(plan!)).toMatchObject({ description: task, examples: [task] });
    const row = await ctx.db.execute<{ embedding: string; embedder: string }>(sql`SELECT embedding::text AS embedding, embedder FROM memory_records WHERE id = ${plan!.id}`);
    // The vector names its embedder, so retrieval never compares it with another embedder's query.
    expect(row.rows[0]!.embedder).toBe(createEmbedder(ctx.config)!.name);
    const stored = JSON.parse(row.rows[0]!.embedding) as number[];
    const [expected] = (await createEmbedder(ctx.config)!.embed([embeddingText(plan!.payload)])) as [number[]];
    const cosine = stored.reduce((sum, v, i) => sum + v * expected[i]!, 0);
    expect(cosine).toBeCloseTo(1, 5);
  });

  it('links a structural twin to the existing plan and counts it as a second execution', async () => {
    const intent = uid('twin');
    const prefix = uid('t');
    const [first] = await store([episode(intent, chain3(prefix))]);
    await pass();
    // Same intent, ops, edges and params; other node ids, and a failure.
    const twin = episode(
      intent,
      [
        { id: 'x1', tool: `${prefix}_fetch` },
        { id: 'x2', tool: `${prefix}_parse`, depends_on: ['x1'] },
        { id: 'x3', tool: `${prefix}_store`, depends_on: ['x2'] },
      ],
      { outcome: 'failure' },
    );
    const [second, third] = await store([twin, episode(intent, chain3(prefix))]);
    await pass();
    const plans = await plansFrom([first!, second!, third!]);
    expect(plans).toHaveLength(1);
    expect(planOf(plans[0]!).metrics).toMatchObject({ execution_count: 3, failure_rate: 1 / 3, avg_latency_ms: 1500 });
    expect(plans[0]!.relations.map((r) => r.target_id).sort()).toEqual([first, second, third].sort());
  });

  it('reports a pass\'s progress while it runs (the progress query), counts that only grow and end at the result; refreshes planner statistics', async () => {
    const prefix = uid('progress');
    await store(Array.from({ length: 40 }, (_, i) => episode(`${prefix}-${i}`, chain3(prefix))));
    const seen: ConsolidationProgress[] = [];
    const result = await ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 2, onProgress: (p) => seen.push(p), progressEveryMs: 20 }));
    expect(seen.some((p) => p.step === 'episodes' && p.scanned > 0)).toBe(true);
    for (const [before, after] of seen.slice(1).map((p, i) => [seen[i]!, p] as const)) expect(after.scanned).toBeGreaterThanOrEqual(before.scanned);
    expect(seen.at(-1)!.scanned).toBeLessThanOrEqual(result.scanned);
    // A finished pass still answers, with its final counts.
    const final = await ctx.withWorker(() => ctx.client.workflow.getHandle(result.workflow_id).query(consolidationProgressQuery));
    expect(final).toMatchObject({ step: 'recording', scanned: result.scanned, created: result.created, linked: result.linked });
    // The planner's statistics are checked (and refreshed when stale) before the first page and after the plans and competences.
    const { events } = await ctx.client.workflow.getHandle(result.workflow_id).fetchHistory();
    const activities = events!.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name] : []));
    expect(activities.filter((name) => name === 'refreshPlannerStatistics')).toHaveLength(2);
    expect(activities.at(0)).toBe('refreshPlannerStatistics');
  });

  it('creates exactly one plan per episode when two passes run at once', async () => {
    const prefix = uid('race');
    const ids = await store(Array.from({ length: 60 }, (_, i) => episode(`${prefix}-${i}`, chain3(prefix))));
    const [a, b] = await ctx.withWorker(() =>
      Promise.all([
        runConsolidationOnce(ctx.client, ctx.config, { pageSize: 7 }),
        runConsolidationOnce(ctx.client, ctx.config, { pageSize: 11 }),
      ]),
    );
    expect(a.scanned).toBeGreaterThanOrEqual(60);
    expect(b.scanned).toBeGreaterThanOrEqual(60);
    // Two more consolidators racing on their own pools, page by page, find nothing left to do.
    const dbs = [createDb(ctx.config.DATABASE_URL, 4), createDb(ctx.config.DATABASE_URL, 4)];
    await Promise.all(dbs.map((db) => createPlanConsolidator({ db }).consolidatePage({ after: null, page_size: 100_000 })));
    await Promise.all(dbs.map((db) => db.$client.end()));

    const plans = await plansFrom(ids);
    expect(plans).toHaveLength(60);
    expect(new Set(plans.map((p) => planOf(p).intent)).size).toBe(60);
    for (const plan of plans) {
      expect(plan.relations).toHaveLength(1);
      expect(planOf(plan).metrics.execution_count).toBe(1);
    }
    const orphans = await ctx.db.execute(sql`
      SELECT r.id FROM memory_records r WHERE r.type = 'plan_graph' AND r.label LIKE ${`${prefix}-%`}
         AND NOT EXISTS (SELECT 1 FROM consolidated_sources c WHERE c.record_id = r.id)`);
    expect(orphans.rows).toHaveLength(0);
  });

  it('runs one pass through POST /v1/consolidation/run for a caller with a key and answers its counts; none for an anonymous one', async () => {
    const [id] = await store([episode(uid('api'), chain3(uid('t')))]);
    const services = await createServices(ctx.config);
    const api = await buildApi(services);
    try {
      const request = { method: 'POST' as const, url: '/v1/consolidation/run', payload: { page_size: 100 } };
      const anonymous = await ctx.withWorker(() => api.inject(request));
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: { code: 'unauthenticated', details: { field: 'headers.authorization' } } });
      expect(await plansFrom([id!])).toHaveLength(0);

      const key = (await services.apiKeys.create(uid('agent'), 'low')).key;
      const response = await ctx.withWorker(() => api.inject({ ...request, headers: { authorization: `Bearer ${key}` } }));
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.workflow_id).toMatch(/^plangraph-consolidation-once-/);
      expect(body.created).toBeGreaterThanOrEqual(1);
      expect(body.scanned).toBeGreaterThanOrEqual(body.eligible);
      expect(await plansFrom([id!])).toHaveLength(1);
      const passes = await ctx.db.execute(sql`SELECT created FROM consolidation_passes WHERE workflow_id = ${body.workflow_id}`);
      expect(passes.rows).toEqual([{ created: body.created }]);
    } finally {
      await api.close();
      await services.close();
    }
  });
});
