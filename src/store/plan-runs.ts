/**
 * Run rows and plan execution counters. Every write here is idempotent, because the
 * activities that call it are retried.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import type { RunOutcome } from '../domain/run-state';
import { groupCommit } from './group-commit';
import { fromJsonb, toJsonbText } from './jsonb-text';

export interface RunStart {
  plan_record_id: string;
  plan_revision: number;
  workflow_id: string;
  run_id: string;
  started_at: string;
  /** The workflow id of the run this one resumes (docs/execution.md#resume). */
  resumed_from?: string;
}

/** A run row not closed yet. */
export type OpenRun = {
  workflow_id: string;
  run_id: string;
  plan_id: string;
  plan_revision: number;
  /** As Postgres renders timestamptz (drizzle's raw queries return text). */
  started_at: string;
};

/**
 * The conflict clause of an `INSERT INTO plan_stats AS s …`: adds the new counts to the stored
 * ones in place, so concurrent writers never lose an update.
 */
export const ACCUMULATE_PLAN_STATS = sql`ON CONFLICT (plan_id) DO UPDATE SET
  successes = s.successes + EXCLUDED.successes,
  failures = s.failures + EXCLUDED.failures,
  latency_sum_ms = s.latency_sum_ms + EXCLUDED.latency_sum_ms,
  latency_samples = s.latency_samples + EXCLUDED.latency_samples,
  last_executed_at = GREATEST(s.last_executed_at, EXCLUDED.last_executed_at)`;
/** The same clause as text, for the prepared statement below (it holds no parameters). */
const ACCUMULATE_PLAN_STATS_TEXT = new PgDialect().sqlToQuery(ACCUMULATE_PLAN_STATS).sql;

// Every run opens and closes its row. Both statements are named, so each pooled connection
// prepares them once and Postgres skips parsing and planning them (its CPU per run, 2,000 runs by
// 20 concurrent writers: 1.05 → 0.55 ms), and both take a batch of runs: the calls made while one
// is in flight go together in the next (src/store/group-commit.ts). For 20 concurrent writers on
// one plan that cut the client's CPU per run from 0.69 to 0.19 ms and Postgres's from 0.6 to 0.1 ms.
const OPEN_RUNS = {
  name: 'plangraph_open_runs',
  text: `INSERT INTO plan_runs (workflow_id, run_id, plan_id, plan_revision, status, started_at, resumed_from)
         SELECT w, r, p, v, 'running', s, f
           FROM unnest($1::text[], $2::text[], $3::uuid[], $4::int[], $5::timestamptz[], $6::text[]) AS t(w, r, p, v, s, f)
         ON CONFLICT (workflow_id, run_id) DO NOTHING`,
};

/**
 * What closeRun runs (see there), for a batch of distinct runs: the runs of one plan are counted
 * in one row update, and plans are updated in id order so concurrent batches cannot deadlock.
 * Returns the runs it counted.
 */
const CLOSE_RUNS = {
  name: 'plangraph_close_runs',
  text: `WITH closed AS (
           INSERT INTO plan_runs AS r (workflow_id, run_id, plan_id, plan_revision, status, started_at, finished_at, latency_ms, error)
           SELECT w, r, p, v, st, s, f, l, e::jsonb
             FROM unnest($1::text[], $2::text[], $3::uuid[], $4::int[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::float8[], $9::text[])
               AS t(w, r, p, v, st, s, f, l, e)
           ON CONFLICT (workflow_id, run_id) DO UPDATE
              SET status = EXCLUDED.status, started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at, latency_ms = EXCLUDED.latency_ms, error = EXCLUDED.error
            WHERE r.finished_at IS NULL
        RETURNING r.workflow_id, r.run_id, r.plan_id, r.status, r.latency_ms, r.finished_at
         ), counted AS (
           INSERT INTO plan_stats AS s (plan_id, successes, failures, latency_sum_ms, latency_samples, last_executed_at)
           SELECT plan_id, count(*) FILTER (WHERE status = 'succeeded'), count(*) FILTER (WHERE status <> 'succeeded'), sum(latency_ms), count(*), max(finished_at)
             FROM closed
            WHERE EXISTS (SELECT 1 FROM memory_records m WHERE m.id = closed.plan_id)
            GROUP BY plan_id ORDER BY plan_id
           ${ACCUMULATE_PLAN_STATS_TEXT}
           RETURNING plan_id
         )
         SELECT workflow_id, run_id FROM closed WHERE plan_id IN (SELECT plan_id FROM counted)`,
};

const runKey = (run: { workflow_id: string; run_id: string }) => `${run.workflow_id}\u0000${run.run_id}`;

/** The parameters of a statement that unnests a batch: one array per column. */
const columns = <T>(items: T[], ...fields: Array<(item: T) => unknown>) => fields.map((field) => items.map(field));

/** Creates a store over the run rows and plan counters. */
export function createRunStore(db: Db) {
  return {
    /** Opens the run row; a retry finds it already there and changes nothing. */
    openRun: groupCommit<RunStart, void>(async (starts) => {
      await db.$client.query({
        ...OPEN_RUNS,
        values: columns(starts, (s) => s.workflow_id, (s) => s.run_id, (s) => s.plan_record_id, (s) => s.plan_revision, (s) => s.started_at, (s) => s.resumed_from ?? null),
      });
      return starts.map(() => undefined);
    }),

    /**
     * Closes the run row and counts the run in the plan's counters, in one statement keyed by the
     * run (no transaction round trips: it sits on every run's critical path). The row is created
     * closed if the run was never opened; only the statement that flips `finished_at` from null
     * counts, so a retry after a commit adds nothing, and the counters are incremented in place,
     * so concurrent runs of one plan lose no update. started_at is the run's own (a starter that
     * opened the row wrote its clock's). Returns whether this call did the counting: of two calls
     * for one run in one batch, the first.
     */
    closeRun: groupCommit<RunOutcome, boolean>(async (outcomes) => {
      const keys = new Set<string>();
      const distinct = outcomes.filter((o) => !keys.has(runKey(o)) && keys.add(runKey(o)));
      const counted = await db.$client.query<{ workflow_id: string; run_id: string }>({
        ...CLOSE_RUNS,
        values: columns(
          distinct,
          (o) => o.workflow_id,
          (o) => o.run_id,
          (o) => o.plan_record_id,
          (o) => o.plan_revision,
          (o) => o.status,
          (o) => o.started_at,
          (o) => o.finished_at,
          (o) => o.latency_ms,
          (o) => (o.error ? toJsonbText(o.error) : null),
        ),
      });
      const countedKeys = new Set(counted.rows.map(runKey));
      // Only the first call of a run in this batch may have counted it.
      return outcomes.map((o) => countedKeys.delete(runKey(o)));
    }),

    /**
     * Run rows still open, oldest first (for reconciling runs that were terminated); `after`
     * pages on past the last row of the previous page.
     */
    async openRuns(olderThan: Date, limit: number, after?: OpenRun) {
      const page = after
        ? sql`AND (started_at, workflow_id, run_id) > (${after.started_at}::timestamptz, ${after.workflow_id}, ${after.run_id})`
        : sql``;
      const result = await db.execute<OpenRun>(sql`
        SELECT workflow_id, run_id, plan_id, plan_revision, started_at FROM plan_runs
         WHERE finished_at IS NULL AND started_at < ${olderThan.toISOString()} ${page}
         ORDER BY started_at, workflow_id, run_id LIMIT ${limit}`);
      return result.rows;
    },

    async getRun(workflowId: string) {
      const result = await db.execute<Record<string, unknown>>(sql`
        SELECT workflow_id, run_id, plan_id, plan_revision, status, started_at, finished_at, latency_ms, error, resumed_from
          FROM plan_runs WHERE workflow_id = ${workflowId} ORDER BY started_at DESC LIMIT 1`);
      const row = result.rows[0];
      if (row) row.error = fromJsonb(row.error);
      return row;
    },
  };
}

export type RunStore = ReturnType<typeof createRunStore>;
