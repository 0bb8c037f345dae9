/**
 * Aggregate figures for `GET /v1/stats` and `GET /metrics`: plan reuse, records by type, runs by
 * status and consolidation totals, each one aggregate query over its table.
 */
import { count, sql, sum, type AnyColumn } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { consolidationPasses, memoryRecords, planRuns } from '../db/schema';
import { MEMORY_TYPES, RECORD_STATUSES } from '../domain/records';
import type { RunState } from '../domain/run-state';

const countSchema = z.number().int().nonnegative();
const countsOf = <K extends string>(keys: readonly K[]) => z.object(Object.fromEntries(keys.map((k) => [k, countSchema])) as Record<K, typeof countSchema>);

/** Statuses a plan_runs row can have (the executor's RunState values). */
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const satisfies readonly RunState[];

export const statsSchema = z.object({
  /** Mean `execution_count` over all active plan graphs (plans never executed count 0). */
  plan_reuse_frequency: z.number().nonnegative(),
  active_plans: countSchema,
  records: countsOf(MEMORY_TYPES),
  plans_by_status: countsOf(RECORD_STATUSES),
  runs: countsOf(RUN_STATUSES).extend({ total: countSchema }),
  consolidation: z.object({
    passes: countSchema,
    scanned: countSchema,
    eligible: countSchema,
    created: countSchema,
    skipped: countSchema,
    competences_created: countSchema,
    competences_reinforced: countSchema,
  }),
});
export type Stats = z.infer<typeof statsSchema>;

/** A column's sum over all rows, 0 for none. */
const total = (column: AnyColumn) => sql<number>`coalesce(${sum(column)}, 0)`.mapWith(Number);

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
        db
          .select({ type: memoryRecords.type, status: memoryRecords.status, n: count() })
          .from(memoryRecords)
          .groupBy(memoryRecords.type, memoryRecords.status),
        db.select({ status: planRuns.status, n: count() }).from(planRuns).groupBy(planRuns.status),
        db
          .select({
            passes: count(),
            scanned: total(consolidationPasses.scanned),
            eligible: total(consolidationPasses.eligible),
            created: total(consolidationPasses.created),
            skipped: total(consolidationPasses.skipped),
            competences_created: total(consolidationPasses.competencesCreated),
            competences_reinforced: total(consolidationPasses.competencesReinforced),
          })
          .from(consolidationPasses),
      ]);
      const byType = zeros(MEMORY_TYPES);
      const plansByStatus = zeros(RECORD_STATUSES);
      for (const row of records) {
        if (row.type in byType) byType[row.type as keyof typeof byType] += row.n;
        if (row.type === 'plan_graph' && row.status in plansByStatus) plansByStatus[row.status as keyof typeof plansByStatus] += row.n;
      }
      const runCounts = { ...zeros(RUN_STATUSES), total: 0 };
      for (const row of runs) {
        if (row.status in runCounts) runCounts[row.status as keyof typeof runCounts] += row.n;
        runCounts.total += row.n;
      }
      return statsSchema.parse({
        plan_reuse_frequency: Number(reuse.rows[0]?.mean ?? 0),
        active_plans: reuse.rows[0]?.plans ?? 0,
        records: byType,
        plans_by_status: plansByStatus,
        runs: runCounts,
        consolidation: consolidation[0],
      });
    },
  };
}

export type StatsStore = ReturnType<typeof createStatsStore>;
