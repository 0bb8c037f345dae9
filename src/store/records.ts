/**
 * Memory records: creation, lookup and the mapping from rows to the wire shape. Plan metrics
 * are derived from the exact counters in plan_stats on every read.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memoryRecords } from '../db/schema';
import type { Embedder } from '../embeddings/embedder';
import { documentEmbeddingText, planDocument } from '../domain/plan-document';
import {
  CONSOLIDATED_TAG,
  sensitivityRank,
  type CompetencePayload,
  type EpisodicPayload,
  type MemoryRecord,
  type MemoryType,
  type Payload,
  type PlanGraphPayload,
  type Relation,
  type Sensitivity,
} from '../domain/records';
import { shapeKey, structureKey } from '../domain/structure';
import { appendAudit, auditTrail, insertRelations } from './record-log';

/** A Db or an open transaction: anything that can run a query. */
export type Queryable = Pick<Db, 'execute' | 'insert' | 'select' | 'update'>;

export interface RecordRow extends Record<string, unknown> {
  id: string;
  type: string;
  sensitivity: string;
  confidence: number;
  salience: number;
  scope: string;
  tags: string[];
  status: string;
  revision: number;
  payload: Payload;
  created_at: Date | string;
  updated_at: Date | string;
  last_reinforced_at: Date | string;
  relations?: Relation[] | null;
  successes?: number | null;
  failures?: number | null;
  latency_sum_ms?: number | null;
  latency_samples?: number | null;
  last_executed_at?: Date | string | null;
}

const iso = (v: Date | string | null | undefined) => (v == null ? null : new Date(v).toISOString());

/** Published plan metrics from exact counters (docs/execution.md#metrics-exactly-once). */
export function metricsFromCounters(row: Pick<RecordRow, 'successes' | 'failures' | 'latency_sum_ms' | 'latency_samples' | 'last_executed_at'>) {
  const successes = Number(row.successes ?? 0);
  const failures = Number(row.failures ?? 0);
  const count = successes + failures;
  const samples = Number(row.latency_samples ?? 0);
  return {
    execution_count: count,
    failure_rate: count > 0 ? failures / count : 0,
    avg_latency_ms: samples > 0 ? Number(row.latency_sum_ms ?? 0) / samples : 0,
    last_executed_at: iso(row.last_executed_at),
  };
}

/** Maps a joined row to the API shape. */
export function toMemoryRecord(row: RecordRow): MemoryRecord {
  let payload = row.payload;
  if (payload.kind === 'plan_graph') payload = { ...payload, metrics: metricsFromCounters(row) };
  return {
    id: row.id,
    type: row.type as MemoryType,
    sensitivity: row.sensitivity as Sensitivity,
    confidence: Number(row.confidence),
    salience: Number(row.salience),
    scope: row.scope,
    tags: row.tags,
    status: row.status as MemoryRecord['status'],
    revision: row.revision,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    last_reinforced_at: iso(row.last_reinforced_at)!,
    payload,
    relations: row.relations ?? [],
  };
}

/** SELECT list joining a record with its relations and plan counters. */
export const RECORD_COLUMNS = sql`
  r.id, r.type, r.sensitivity, r.confidence, r.salience, r.scope, r.tags, r.status, r.revision, r.payload,
  r.created_at, r.updated_at, r.last_reinforced_at,
  s.successes, s.failures, s.latency_sum_ms, s.latency_samples, s.last_executed_at,
  (SELECT coalesce(json_agg(json_build_object('predicate', m.predicate, 'target_id', m.target_id, 'weight', m.weight)
          ORDER BY m.predicate, m.target_id), '[]'::json)
     FROM memory_relations m WHERE m.source_id = r.id) AS relations`;

export const RECORD_FROM = sql`memory_records r LEFT JOIN plan_stats s ON s.plan_id = r.id`;

export interface NewRecord {
  id?: string;
  type: MemoryType;
  sensitivity: Sensitivity;
  confidence: number;
  salience?: number;
  scope?: string;
  tags?: string[];
  payload: EpisodicPayload | PlanGraphPayload | CompetencePayload;
  embedding?: number[] | null;
  /** Name of the embedder that made `embedding`. */
  embedder?: string | null;
}

/** Text a plan is embedded by: its document. */
export function planEmbeddingText(payload: PlanGraphPayload): string {
  return documentEmbeddingText(planDocument(payload));
}

/** Text a record is embedded by: a plan's document, a competence's skill and tools, an episode's timeline. */
export function embeddingText(payload: Payload): string {
  if (payload.kind === 'plan_graph') return planEmbeddingText(payload);
  if (payload.kind === 'competence') return `${payload.skill_name} ${payload.required_tools.join(' ')}`;
  return payload.timeline.map((e) => `${e.event_kind} ${e.summary ?? ''}`).join(' ');
}

/** Column values for inserting a record. */
export function recordValues(record: NewRecord) {
  const payload = record.payload;
  return {
    id: record.id,
    type: record.type,
    sensitivity: record.sensitivity,
    sensitivityRank: sensitivityRank(record.sensitivity),
    confidence: record.confidence,
    salience: record.salience ?? 0,
    scope: record.scope ?? '',
    tags: record.tags ?? [],
    payload,
    label: payload.kind === 'plan_graph' ? payload.intent : payload.kind === 'competence' ? payload.skill_name : null,
    structureKey: payload.kind === 'plan_graph' ? structureKey(payload) : null,
    // Only learned plans are joined by the job of an episode (docs/consolidation.md#one-plan-per-job).
    shapeKey: payload.kind === 'plan_graph' && record.tags?.includes(CONSOLIDATED_TAG) ? shapeKey(payload) : null,
    embedding: record.embedding ?? null,
    embedder: record.embedding ? (record.embedder ?? null) : null,
  };
}

/** Creates the record store over a database and an optional embedder. */
export function createRecordStore(db: Db, embedder?: Embedder) {
  return {
    /** Inserts a record with an audit `create` entry, in one transaction. */
    async create(record: NewRecord, actor = 'system', relations: Relation[] = []): Promise<MemoryRecord> {
      const computed = record.embedding === undefined && embedder ? (await embedder.embed([embeddingText(record.payload)]))[0] : undefined;
      const embedding = record.embedding ?? computed ?? null;
      const embedderName = computed ? embedder!.name : record.embedder;
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.insert(memoryRecords).values(recordValues({ ...record, embedding, embedder: embedderName })).returning({ id: memoryRecords.id });
        const newId = row!.id;
        await insertRelations(tx, newId, relations);
        await appendAudit(tx, { id: newId, action: 'create', actor, revision: 1 });
        return newId;
      });
      return (await this.get(id))!;
    },

    /** One record with its relations and live metrics, or undefined. */
    async get(id: string): Promise<MemoryRecord | undefined> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const result = await db.execute<RecordRow>(sql`SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM} WHERE r.id = ${id}`);
      const row = result.rows[0];
      return row ? toMemoryRecord(row) : undefined;
    },

    /**
     * The active plan that replaced a superseded or merged one, following `supersedes` and
     * `merged_from` relations (a chain of revisions ends at its active one); undefined when none.
     */
    async successor(id: string): Promise<string | undefined> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const result = await db.execute<{ id: string }>(sql`
        WITH RECURSIVE chain(id, status, depth) AS (
          SELECT r.id, r.status, 0 FROM memory_records r WHERE r.id = ${id}
          UNION ALL
          SELECT n.id, n.status, c.depth + 1 FROM chain c
            JOIN memory_relations m ON m.target_id = c.id AND m.predicate IN ('supersedes', 'merged_from')
            JOIN memory_records n ON n.id = m.source_id
           WHERE c.status IN ('superseded', 'merged') AND c.depth < 100)
        SELECT id FROM chain WHERE depth > 0 AND status = 'active' ORDER BY depth, id LIMIT 1`);
      return result.rows[0]?.id;
    },

    /** The audit entries of a record, oldest first. */
    audit(id: string) {
      return auditTrail(db, id);
    },
  };
}

export type RecordStore = ReturnType<typeof createRecordStore>;
