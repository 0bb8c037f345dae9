/** Planner statistics refreshed after bulk writes, by autovacuum's rule, in a database of this file's own. */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { createEpisodeStore } from '../../src/store/episodes';
import { createStatisticsRefresher } from '../../src/store/planner-statistics';
import { episode } from './episodes';
import { until } from './executor-helpers';
import { uid } from './harness';
import { usePrivateDatabase } from './private-database';

let db: Db;
usePrivateDatabase('planner_stats', (opened) => (db = opened));

const lastAnalyzed = async (table: string) =>
  (await db.execute<{ at: string | null }>(sql`SELECT coalesce(last_analyze, last_autoanalyze)::text AS at FROM pg_stat_user_tables WHERE relname = ${table}`)).rows[0]?.at ?? null;

describe('planner statistics', () => {
  it('analyzes a table once it changed by more than autovacuum allows, then not again until it changes that much', async () => {
    const refresher = createStatisticsRefresher(db);
    await refresher.refreshStale();
    const before = await lastAnalyzed('memory_records');
    const prefix = uid('stats');
    await createEpisodeStore(db, hashEmbedder).insertMany(
      Array.from({ length: 300 }, (_, i) => episode(`${prefix}-${i}`, [{ id: 'a', tool: `${prefix}_a` }, { id: 'b', tool: `${prefix}_b`, depends_on: ['a'] }, { id: 'c', tool: `${prefix}_c`, depends_on: ['b'] }])),
    );
    // Each backend reports its changes to the statistics system within a second or so.
    const analyzed = await until(() => refresher.refreshStale(), (tables) => tables.includes('memory_records'), 'memory_records analyzed');
    expect(analyzed).not.toContain('plan_stats');
    expect(await lastAnalyzed('memory_records')).not.toBe(before);
    expect(await refresher.refreshStale()).toEqual([]);
    // The planner now knows how many episodes there are.
    const plan = await db.execute<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(sql`EXPLAIN (FORMAT JSON) SELECT id FROM memory_records WHERE type = 'episodic'`);
    expect(plan.rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows']).toBeGreaterThanOrEqual(250);
  });
});
