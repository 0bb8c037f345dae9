/**
 * Aggregate figures for `GET /v1/stats` and `GET /metrics`: plan reuse, records by type, runs by
 * status and consolidation totals, each one aggregate query over its table.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { MEMORY_TYPES, RECORD_STATUSES } from '../domain/records';
import type { RunState } from '../domain/run-state';

const count = z.number().int().nonnegative();
const countsOf = <K extends string>(keys: readonly K[]) => z.object(Object.fromEntries(keys.map((k) => [k, count])) as Record<K, typeof count>);

/** Statuses a plan_runs row can have (the executor's RunState values). */
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const satisfies readonly RunState[];

export const statsSchema = z.object({
  /** Mean `execution_count` over all active plan graphs (plans never executed count 0). */
  plan_reuse_frequency: z.number().nonnegative(),
  active_plans: count,
  records: countsOf(MEMORY_TYPES),
  plans_by_status: countsOf(RECORD_STATUSES),
  runs: countsOf(RUN_STATUSES).extend({ total: count }),
  consolidation: z.object({
    passes: count,
    scanned: count,
    eligible: count,
    created: count,
    skipped: count,
    competences_created: count,
    competences_reinforced: count,
  }),
});
export type Stats = z.infer<typeof statsSchema>;

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** Creates the stats reader over the database. */
export function createStatsStore(db: Db) {
  return {
    /** Every figure at once, read in parallel. */
    async snapshot(): Promise<Stats> {
      const [reuse, records, runs, consolidation] = await Promise.all([
        db.execute<{ plans: number; mean: number }>(sql`
          SELECT count(*)::int AS plans, coalesce(avg(coalesce(s.successes, 0) + coalesce(s.failures, 0)), 0)::float8 AS mean
            FROM memory_records r LEFT JOIN plan_stats s ON s.plan_id = r.id
           WHERE r.type = 'plan_graph' AND r.status = 'active'`),
        db.execute<{ type: string; status: string; n: number }>(sql`
          SELECT type, status, count(*)::int AS n FROM memory_records GROUP BY type, status`),
        db.execute<{ status: string; n: number }>(sql`SELECT status, count(*)::int AS n FROM plan_runs GROUP BY status`),
        db.execute<Stats['consolidation']>(sql`
          SELECT count(*)::int AS passes,
                 coalesce(sum(scanned), 0)::int AS scanned, coalesce(sum(eligible), 0)::int AS eligible,
                 coalesce(sum(created), 0)::int AS created, coalesce(sum(skipped), 0)::int AS skipped,
                 coalesce(sum(competences_created), 0)::int AS competences_created,
                 coalesce(sum(competences_reinforced), 0)::int AS competences_reinforced
            FROM consolidation_passes`),
      ]);
      const byType = zeros(MEMORY_TYPES);
      const plansByStatus = zeros(RECORD_STATUSES);
      for (const row of records.rows) {
        if (row.type in byType) byType[row.type as keyof typeof byType] += row.n;
        if (row.type === 'plan_graph' && row.status in plansByStatus) plansByStatus[row.status as keyof typeof plansByStatus] += row.n;
      }
      const runCounts = { ...zeros(RUN_STATUSES), total: 0 };
      for (const row of runs.rows) {
        if (row.status in runCounts) runCounts[row.status as keyof typeof runCounts] += row.n;
        runCounts.total += row.n;
      }
      return statsSchema.parse({
        plan_reuse_frequency: Number(reuse.rows[0]?.mean ?? 0),
        active_plans: reuse.rows[0]?.plans ?? 0,
        records: byType,
        plans_by_status: plansByStatus,
        runs: runCounts,
        consolidation: consolidation.rows[0],
      });
    },
  };
}

export type StatsStore = ReturnType<typeof createStatsStore>;
