/**
 * Reading plans for a caller: one plan or a page of plans, trust-filtered in SQL and redacted
 * one level above the caller's clearance, exactly as retrieval is (docs/concepts.md#trust-contexts-and-visibility).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { RECORD_STATUSES, type MemoryRecord, type TrustContext } from '../domain/records';
import { redact, visibility, type RedactedRecord } from '../domain/trust';
import { DomainError } from '../domain/errors';
import { trustWhere } from './trust-sql';
import { decodePageCursor, encodePageCursor } from '../store/page-cursor';
import { RECORD_COLUMNS, RECORD_FROM, toMemoryRecord, type RecordRow } from '../store/records';
import { decimalInteger } from '../domain/decimal-integer';

export const listPlansQuerySchema = z.object({
  intent: z.string().min(1).optional(),
  status: z.enum(RECORD_STATUSES).optional(),
  limit: decimalInteger(1, 200).default(50),
  /** Opaque cursor from the previous page's `next_cursor`. */
  cursor: z.string().optional(),
}).strict();
export type ListPlansQuery = z.input<typeof listPlansQuerySchema>;

/** A plan as a caller sees it. */
export type VisiblePlan = { record: MemoryRecord; redacted: false } | { record: RedactedRecord; redacted: true };

export interface PlanPage {
  items: VisiblePlan[];
  next_cursor: string | null;
}

function asVisible(record: MemoryRecord, trust: TrustContext): VisiblePlan | undefined {
  const seen = visibility(record, trust);
  if (seen === 'invisible') return undefined;
  return seen === 'redacted' ? { record: redact(record), redacted: true } : { record, redacted: false };
}

/** Creates the plan reader over a database. */
export function createPlanReader(db: Db) {
  return {
    /**
     * One record with live metrics and revision; invisible and unknown ids are both 404. Any
     * type is returned so callers can refuse an episode by name rather than pretend it is absent.
     */
    async get(id: string, trust: TrustContext): Promise<VisiblePlan> {
      const notFound = new DomainError('not_found', `no record ${id}`, { id });
      if (!z.uuid().safeParse(id).success) throw notFound;
      const result = await db.execute<RecordRow>(sql`SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM}
        WHERE r.id = ${id}::uuid`);
      const row = result.rows[0];
      const visible = row ? asVisible(toMemoryRecord(row), trust) : undefined;
      if (!visible) throw notFound;
      return visible;
    },

    /** A page of plans, newest first, filtered by intent and status. */
    async list(query: ListPlansQuery, trust: TrustContext): Promise<PlanPage> {
      const { intent, status, limit, cursor } = listPlansQuerySchema.parse(query);
      const after = cursor ? decodePageCursor(cursor, 1, (id) => z.uuid().safeParse(id).success) : undefined;
      const result = await db.execute<RecordRow & { cursor_at: string }>(sql`SELECT ${RECORD_COLUMNS}, r.created_at::text AS cursor_at
        FROM ${RECORD_FROM}
        WHERE r.type = 'plan_graph' AND ${trustWhere(trust)}
          ${intent ? sql`AND r.label = ${intent}` : sql``}
          ${status ? sql`AND r.status = ${status}` : sql``}
          ${after ? sql`AND (r.created_at, r.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${limit + 1}`);
      const rows = result.rows.slice(0, limit);
      const last = rows[rows.length - 1];
      return {
        items: rows.map((row) => asVisible(toMemoryRecord(row), trust)).filter((v): v is VisiblePlan => v !== undefined),
        next_cursor: result.rows.length > limit && last ? encodePageCursor(last.cursor_at, last.id) : null,
      };
    },
  };
}

export type PlanReader = ReturnType<typeof createPlanReader>;
