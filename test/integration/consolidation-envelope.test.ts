/**
 * Consolidation keeps to who may see what: an episode joins only a plan of its own sensitivity
 * and scope (its task phrasing and values become the plan's examples), and a plan revised by new
 * twins keeps the phrasings it learned.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { createAliasLearner } from '../../src/store/aliases';
import { createEpisodeStore } from '../../src/store/episodes';
import { createRecordStore } from '../../src/store/records';
import { episode } from './episodes';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const pass = () => ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 500 }));

/** The plans these episodes were consolidated into. */
async function plansOf(episodeIds: string[]): Promise<string[]> {
  const rows = await ctx.db.execute<{ id: string }>(
    sql`SELECT DISTINCT record_id AS id FROM consolidated_sources WHERE kind = 'plan' AND episode_id = ANY(${sql.param(episodeIds)}::uuid[])`,
  );
  return rows.rows.map((r) => r.id);
}

/** Three tools in a chain whose first call fetches `url`: twins differ only there. */
const tools = (prefix: string, url: string) => [
  { id: 'a', tool: `${prefix}_fetch`, args: { url } },
  { id: 'b', tool: `${prefix}_parse`, depends_on: ['a'] },
  { id: 'c', tool: `${prefix}_store`, depends_on: ['b'] },
];

describe('consolidation and trust', () => {
  const episodes = () => createEpisodeStore(ctx.db, hashEmbedder);
  const open = (intent: string, prefix: string, url = 'https://public.example/feed') =>
    episode(intent, tools(prefix, url), { sensitivity: 'low', scope: '', summaries: ['fetch the public feed'] });
  const secret = (intent: string, prefix: string) =>
    episode(intent, tools(prefix, 'https://payroll.acme-secret/export'), { sensitivity: 'hyper', scope: 'hr-only', summaries: ['export ACME payroll for the layoffs'] });

  it('a twin of another sensitivity and scope never feeds a plan, in one pass or a later one', async () => {
    const intent = uid('envelope');
    const prefix = uid('t');
    // Stored one after the other: the first of a structure decides the new plan's envelope.
    const [low] = await episodes().insertMany([open(intent, prefix)]);
    const [hyper] = await episodes().insertMany([secret(intent, prefix)]);
    const first = await pass();
    const [plan] = await plansOf([low!]);
    expect(await plansOf([hyper!])).toEqual([]);
    expect(first.skipped).toBeGreaterThanOrEqual(1);
    const record = (await createRecordStore(ctx.db).get(plan!))!;
    expect(record).toMatchObject({ sensitivity: 'low', scope: '' });
    expect(JSON.stringify(record.payload)).not.toMatch(/payroll/);

    // A later pass: the secret twin still stays out, and the plan is not revised with it.
    await pass();
    expect(await plansOf([hyper!])).toEqual([]);
    const after = (await createRecordStore(ctx.db).get(plan!))!;
    expect(after.status).toBe('active');
    expect(JSON.stringify(after.payload)).not.toMatch(/payroll/);
  });

  it('a plan revised by a new twin keeps the aliases it learned', async () => {
    const intent = uid('aliases');
    const prefix = uid('t');
    const [firstEpisode] = await episodes().insertMany([open(intent, prefix)]);
    await pass();
    const [plan] = await plansOf([firstEpisode!]);
    const alias = `grab the open news feed ${uid('please')}`;
    expect((await createAliasLearner(ctx.db).learn(plan!, alias, 'tester', 'test'))?.learned).toBe(true);

    // A twin with another url turns it into an input: a new revision of the plan.
    const [twin] = await episodes().insertMany([open(intent, prefix, 'https://other.example/feed')]);
    await pass();
    const [revised] = await plansOf([twin!]);
    expect(revised).not.toBe(plan);
    const rows = await ctx.db.execute<{ aliases: string[] }>(sql`SELECT aliases FROM memory_records WHERE id = ${revised}::uuid`);
    expect(rows.rows[0]!.aliases).toEqual([alias]);
  });
});
