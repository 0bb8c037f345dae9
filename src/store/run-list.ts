/**
 * Listing plan runs from Postgres (the plan_runs rows), newest first, filtered by plan, state
 * and start time. A caller sees exactly the runs the run view would show it: runs of plans it
 * may see in full and may run itself.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { SENSITIVITIES, sensitivityRank, type TrustContext } from '../domain/records';
import { timestamptzSchema } from '../domain/timestamps';
import { decimalInteger } from '../domain/decimal-integer';
import { decodePageCursor, encodePageCursor } from './page-cursor';

export const RUN_ROW_STATES = ['running', 'succeeded', 'failed', 'cancelled'] as const;

export const listRunsQuerySchema = z
  .object({
    plan_id: z.uuid().optional(),
    state: z.enum(RUN_ROW_STATES).optional(),
    /** Runs started at or after this instant. */
    since: timestamptzSchema.optional(),
    /** Runs started before this instant. */
    before: timestamptzSchema.optional(),
    limit: decimalInteger(1, 200).default(50),
    /** Opaque cursor from the previous page's `next_cursor`. */
    cursor: z.string().optional(),
  })
  .strict();
export type ListRunsQuery = z.input<typeof listRunsQuerySchema>;

export const runListItemSchema = z.object({
  workflow_id: z.string(),
  run_id: z.string(),
  plan_id: z.string(),
  plan_revision: z.number(),
  intent: z.string(),
  state: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  latency_ms: z.number().nullable(),
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
});
export const runListSchema = z.object({ items: z.array(runListItemSchema), next_cursor: z.string().nullable() });
export type RunList = z.infer<typeof runListSchema>;

type Row = Omit<RunList['items'][number], 'started_at' | 'finished_at' | 'latency_ms'> & {
  started_at: string | Date;
  /** started_at as Postgres text, microseconds intact, for the page cursor. */
  cursor_at: string;
  finished_at: string | Date | null;
  latency_ms: number | string | null;
};

/**
 * The trust rule of the run view in SQL: the plan is visible in full (sensitivity and scope)
 * and runnable by the caller (its `requires_authenticated` and `max_sensitivity` constraints).
 */
function runnableWhere(trust: TrustContext) {
  const rank = sensitivityRank(trust.max_sensitivity);
  const levels = sql.param([...SENSITIVITIES]);
  return sql`r.sensitivity_rank <= ${rank}
    ${trust.scopes ? sql`AND (r.scope = '' OR r.scope = ANY(${sql.param(trust.scopes)}::text[]))` : sql``}
    ${trust.authenticated ? sql`` : sql`AND coalesce((r.payload->'constraints'->>'requires_authenticated')::boolean, false) = false`}
    AND coalesce(array_position(${levels}::text[], r.payload->'constraints'->>'max_sensitivity') - 1, 0) <= ${rank}`;
}

/** Creates the run lister over a database. */
export function createRunLister(db: Db) {
  return {
    async list(query: ListRunsQuery, trust: TrustContext): Promise<RunList> {
      const { plan_id, state, since, before, limit, cursor } = listRunsQuerySchema.parse(query);
      const after = cursor ? decodePageCursor(cursor, 2, (key) => key.length > 0) : undefined;
      const result = await db.execute<Row>(sql`
        SELECT p.workflow_id, p.run_id, p.plan_id::text AS plan_id, p.plan_revision, coalesce(r.label, '') AS intent,
               p.status AS state, p.started_at, p.finished_at, p.latency_ms, p.error, p.started_at::text AS cursor_at
          FROM plan_runs p JOIN memory_records r ON r.id = p.plan_id
         WHERE r.type = 'plan_graph' AND ${runnableWhere(trust)}
           ${plan_id ? sql`AND p.plan_id = ${plan_id}::uuid` : sql``}
           ${state ? sql`AND p.status = ${state}` : sql``}
           ${since ? sql`AND p.started_at >= ${since}::timestamptz` : sql``}
           ${before ? sql`AND p.started_at < ${before}::timestamptz` : sql``}
           ${after ? sql`AND (p.started_at, p.workflow_id, p.run_id) < (${after[0]}::timestamptz, ${after[1]}, ${after[2]})` : sql``}
         ORDER BY p.started_at DESC, p.workflow_id DESC, p.run_id DESC
         LIMIT ${limit + 1}`);
      const iso = (v: string | Date) => new Date(v).toISOString();
      const rows = result.rows.slice(0, limit);
      const last = rows.at(-1);
      return {
        items: rows.map(({ cursor_at: _cursor, ...row }) => ({
          ...row,
          started_at: iso(row.started_at),
          finished_at: row.finished_at == null ? null : iso(row.finished_at),
          latency_ms: row.latency_ms == null ? null : Number(row.latency_ms),
        })),
        next_cursor: result.rows.length > limit && last ? encodePageCursor(last.cursor_at, last.workflow_id, last.run_id) : null,
      };
    },
  };
}

export type RunLister = ReturnType<typeof createRunLister>;
