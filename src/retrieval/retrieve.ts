/**
 * Retrieval and selection (SPEC §3). Candidates are gathered in SQL — trust and status filters
 * in the WHERE clause, nearest embeddings through the HNSW index — and only that short list is
 * scored exactly in JavaScript. Never loads every record.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { memoryTypeSchema, trustContextSchema, type MemoryRecord, type TrustContext } from '../domain/records';
import { scoreRecord, select, type ScoreSignals, type Selection } from '../domain/scoring';
import { redact, runnableBy, visibility, type RedactedRecord } from '../domain/trust';
import type { Embedder } from '../embeddings/embedder';
import { trustWhere } from './trust-sql';
import { RECORD_COLUMNS, toMemoryRecord, type RecordRow } from '../store/records';

export const retrieveRequestSchema = z.object({
  task_descriptor: z.string().min(1),
  /** Required: a missing trust context is an error, never a default. */
  trust: trustContextSchema,
  memory_types: z.array(memoryTypeSchema).default(['plan_graph']),
  limit: z.number().int().min(1).max(100).default(10),
});
export type RetrieveRequest = z.input<typeof retrieveRequestSchema>;

/** One ranked record with its score and the signals behind it. */
export interface ScoredCandidate {
  record: MemoryRecord | RedactedRecord;
  redacted: boolean;
  score: number;
  signals: ScoreSignals;
}

export interface RetrieveResult {
  candidates: ScoredCandidate[];
  selection: Selection;
}

/**
 * Whether a candidate can be chosen to run: a fully visible plan graph the caller may run.
 * Redacted records and other memory types are listed but never selected, and do not count
 * for the selection confidence.
 */
export function isSelectable(candidate: ScoredCandidate, trust: TrustContext): candidate is ScoredCandidate & { record: MemoryRecord } {
  if (candidate.redacted) return false;
  const record = candidate.record as MemoryRecord;
  return record.payload.kind === 'plan_graph' && runnableBy(record.payload, trust);
}

/** How many nearest neighbours to fetch for `limit` results: enough for exact re-scoring to reorder. */
export function candidatePoolSize(limit: number): number {
  return Math.max(limit * 5, 50);
}

// pgvector's cap on hnsw.ef_search; the pool is sized well below it.
const MAX_EF_SEARCH = 1000;

type CandidateRow = RecordRow & { distance: number | null };

/** Creates the retriever over a database, an optional embedder and the selection threshold. */
export function createRetriever(deps: { db: Db; embedder?: Embedder; threshold: number }) {
  const { db, embedder, threshold } = deps;

  async function queryEmbedding(text: string): Promise<number[] | undefined> {
    if (!embedder) return undefined;
    const [vector] = await embedder.embed([text]);
    // A zero vector (text with no features) has no direction: cosine would be undefined.
    return vector && vector.some((v) => v !== 0) ? vector : undefined;
  }

  async function gather(trust: TrustContext, types: string[], pool: number, query: number[] | undefined): Promise<CandidateRow[]> {
    // A single type is an equality, so the ordered partial index on (type, confidence) applies.
    const typeIs = types.length === 1 ? sql`r.type = ${types[0]}` : sql`r.type = ANY(${sql.param(types)}::text[])`;
    const where = sql`${typeIs} AND r.status = 'active' AND ${trustWhere(trust)}`;
    const byConfidence = (extra: ReturnType<typeof sql>) =>
      sql`SELECT r.id, NULL::float8 AS distance FROM memory_records r WHERE ${where} ${extra}
          ORDER BY r.confidence DESC NULLS LAST, r.id LIMIT ${pool}`;
    const ids = query
      ? sql`(SELECT r.id, r.embedding <=> ${vectorLiteral(query)}::vector AS distance FROM memory_records r
              WHERE ${where} AND r.embedding IS NOT NULL
              ORDER BY r.embedding <=> ${vectorLiteral(query)}::vector LIMIT ${pool})
            UNION ALL (${byConfidence(sql`AND r.embedding IS NULL`)})`
      : byConfidence(sql``);
    return db.transaction(async (tx) => {
      if (query) {
        // Filters apply after the index scan; iterative scanning keeps going until the pool is full.
        // Both settings in one round trip; is_local = true scopes them to this transaction.
        const efSearch = String(Math.min(Math.max(pool, 40), MAX_EF_SEARCH));
        await tx.execute(sql`SELECT set_config('hnsw.ef_search', ${efSearch}, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
      }
      const result = await tx.execute<CandidateRow>(sql`SELECT ${RECORD_COLUMNS}, c.distance
        FROM (${ids}) c JOIN memory_records r ON r.id = c.id LEFT JOIN plan_stats s ON s.plan_id = r.id`);
      return result.rows;
    });
  }

  return {
    /** Ranks the records matching a task for a caller, with the selection verdict. */
    async retrieve(request: RetrieveRequest, now: Date = new Date()): Promise<RetrieveResult> {
      const { task_descriptor, trust, memory_types, limit } = retrieveRequestSchema.parse(request);
      const query = await queryEmbedding(task_descriptor);
      const rows = await gather(trust, [...new Set(memory_types)], candidatePoolSize(limit), query);
      const scored = rows
        .map((row): ScoredCandidate => {
          const record = toMemoryRecord(row);
          const cosine = row.distance == null || Number.isNaN(Number(row.distance)) ? undefined : 1 - Number(row.distance);
          const { score, signals } = scoreRecord(record, now, cosine);
          const redacted = visibility(record, trust) === 'redacted';
          return { record: redacted ? redact(record) : record, redacted, score, signals };
        })
        .sort((a, b) => b.score - a.score || b.record.confidence - a.record.confidence || a.record.id.localeCompare(b.record.id));
      // Selection looks at the whole pool, so a close runner-up beyond `limit` still lowers confidence.
      const selection = select(
        scored.filter((c) => isSelectable(c, trust)).map((c) => c.score),
        threshold,
      );
      return { candidates: scored.slice(0, limit), selection };
    },
  };
}

export type Retriever = ReturnType<typeof createRetriever>;

/** pgvector's text form of a vector. */
function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}
