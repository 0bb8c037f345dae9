/**
 * Planner statistics kept current after bulk writes. A consolidation pass can insert tens of
 * thousands of rows at once; until the tables are analyzed, the planner still believes them as
 * small as before and reads every plan for each retrieval instead of using the HNSW and GIN
 * indexes (20k consolidated plans: ~100 ms a query against ~20 ms after ANALYZE). Autovacuum would
 * analyze them within a minute or so, where it runs at all; a pass does not wait for it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

/** The tables a consolidation pass writes and retrieval reads, each with its constant ANALYZE statement. */
const ANALYZE: Record<string, SQL> = {
  memory_records: sql`ANALYZE memory_records`,
  memory_relations: sql`ANALYZE memory_relations`,
  plan_stats: sql`ANALYZE plan_stats`,
  consolidated_sources: sql`ANALYZE consolidated_sources`,
};

/** Creates the statistics refresher over a database. */
export function createStatisticsRefresher(db: Db) {
  return {
    /**
     * Analyzes the tables changed enough since their last analysis by autovacuum's own rule (more
     * than autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × rows); returns them.
     */
    async refreshStale(beforeEach: () => void = () => undefined): Promise<string[]> {
      const stale = await db.execute<{ table: string }>(sql`
        SELECT s.relname AS table FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
         WHERE s.schemaname = current_schema() AND s.relname = ANY(${sql.param(Object.keys(ANALYZE))}::text[])
           AND s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
                 + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
         ORDER BY s.relname`);
      const names = stale.rows.map((row) => row.table);
      for (const name of names) {
        beforeEach();
        await db.execute(ANALYZE[name]!);
      }
      return names;
    },
  };
}
