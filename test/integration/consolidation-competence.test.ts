import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import type { NewEpisode, Sensitivity } from '../../src/domain/records';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { createEpisodeStore } from '../../src/store/episodes';
import { createRecordStore } from '../../src/store/records';
import { episode } from './episodes';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** A successful (unless said otherwise) episode calling these tools, independent of each other. */
function episodeOf(tools: string[], over: { outcome?: 'success' | 'failure'; sensitivity?: Sensitivity; scope?: string } = {}): NewEpisode {
  return episode('work', tools.map((tool, i) => ({ id: `n${i}`, tool })), { ...over, kinds: ['work'] });
}

const store = (episodes: NewEpisode[]) => createEpisodeStore(ctx.db, hashEmbedder).insertMany(episodes);
const pass = () => ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config));

async function skill(name: string) {
  const result = await ctx.db.execute<{ id: string }>(sql`SELECT id FROM memory_records WHERE type = 'competence' AND label = ${name}`);
  const id = result.rows[0]?.id;
  return id ? createRecordStore(ctx.db).get(id) : undefined;
}

describe('competence consolidation', () => {
  it('groups successful episodes by tool signature into one skill with the highest sensitivity and their shared scope', async () => {
    const [a, b] = [uid('search'), uid('fetch')];
    const ids = await store([
      episodeOf([a, ` ${b} `], { sensitivity: 'low', scope: 'team-a' }),
      episodeOf([b, a], { sensitivity: 'high', scope: 'team-a' }),
      episodeOf([a, b], { outcome: 'failure', sensitivity: 'hyper', scope: 'team-a' }),
    ]);
    await pass();
    const signature = [a, b].sort().join('+');
    const record = await skill(`skill:${signature}`);
    expect(record).toMatchObject({ type: 'competence', confidence: 0.8, sensitivity: 'high', scope: 'team-a', salience: 0.5 });
    expect(record!.relations.map((r) => r.target_id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(record!.payload).toMatchObject({ kind: 'competence', skill_name: `skill:${signature}`, performance: { success_count: 2 } });
    const embedded = await ctx.db.execute(sql`SELECT 1 FROM memory_records WHERE id = ${record!.id} AND embedding IS NOT NULL`);
    expect(embedded.rows).toHaveLength(1);
  });

  it('needs two successful episodes', async () => {
    const tool = uid('alone');
    await store([episodeOf([tool, 'x']), episodeOf([tool, 'x'], { outcome: 'failure' })]);
    await pass();
    expect(await skill(`skill:${[tool, 'x'].sort().join('+')}`)).toBeUndefined();
  });

  it('marks a skill learned across scopes as mixed-scope', async () => {
    const tool = uid('mixed');
    await store([episodeOf([tool], { scope: 'team-a' }), episodeOf([tool], { scope: 'team-b' })]);
    await pass();
    expect((await skill(`skill:${tool}`))?.scope).toBe('consolidated:mixed-scope');
  });

  it('reinforces an existing skill by 0.1 instead of creating a second one, and counts each episode once', async () => {
    const tool = uid('again');
    await store([episodeOf([tool]), episodeOf([tool])]);
    await pass();
    const created = await skill(`skill:${tool}`);
    expect(created?.salience).toBe(0.5);

    await pass();
    expect((await skill(`skill:${tool}`))?.salience).toBe(0.5);

    await store([episodeOf([tool]), episodeOf([tool])]);
    const result = await pass();
    expect(result.competences_reinforced).toBeGreaterThanOrEqual(1);
    const reinforced = await skill(`skill:${tool}`);
    expect(reinforced!.id).toBe(created!.id);
    expect(reinforced!.salience).toBeCloseTo(0.6, 10);
    expect(reinforced!.relations).toHaveLength(4);
    const audit = await createRecordStore(ctx.db).audit(created!.id);
    expect(audit.map((e) => e.action)).toEqual(['create', 'reinforce']);
    const count = await ctx.db.execute(sql`SELECT 1 FROM memory_records WHERE type = 'competence' AND label = ${`skill:${tool}`}`);
    expect(count.rows).toHaveLength(1);
  });

  it('caps reinforced salience at 1', async () => {
    const tool = uid('cap');
    await store([episodeOf([tool]), episodeOf([tool])]);
    await pass();
    const id = (await skill(`skill:${tool}`))!.id;
    await ctx.db.execute(sql`UPDATE memory_records SET salience = 0.95 WHERE id = ${id}`);
    await store([episodeOf([tool]), episodeOf([tool])]);
    await pass();
    expect((await skill(`skill:${tool}`))!.salience).toBe(1);
  });
});
