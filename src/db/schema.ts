/**
 * The tables (drizzle is their single source of truth; migrations are generated from this file).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';

export const EMBEDDING_DIMENSIONS = 256;

/** Postgres full-text vector; written by the database (generated column), read as text. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every stored memory: episodes, plan graphs and competences (docs/concepts.md#memory-records). */
export const memoryRecords = pgTable(
  'memory_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    sensitivity: text('sensitivity').notNull(),
    /** public = 0 … hyper = 4, so trust filters are range conditions on an index. */
    sensitivityRank: smallint('sensitivity_rank').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    salience: doublePrecision('salience').notNull().default(0),
    scope: text('scope').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').notNull().default('active'),
    revision: integer('revision').notNull().default(1),
    payload: jsonb('payload').notNull(),
    /** Plan intent or skill name, kept beside the payload for filtering. */
    label: text('label'),
    /** Plan structure (intent, ops, edges) for structural dedup; null for other types. */
    structureKey: text('structure_key'),
    /** Plan ops and edges without the intent: the plans an episode whose task has no event kind may join. */
    shapeKey: text('shape_key'),
    embedding: vector('embedding', { dimensions: EMBEDDING_DIMENSIONS }),
    /** Name of the embedder that made `embedding`; retrieval compares only vectors of the query's embedder. */
    embedder: text('embedder'),
    /** Task phrasings learned from use (bounded, deduplicated, audited); matched as whole phrasings, apart from the document. */
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    /** The lexical plan document, weighted A–D (see src/domain/plan-document.ts); maintained by Postgres. */
    document: tsvector('document').generatedAlwaysAs(sql`plan_document_tsvector(payload, tags)`),
    /** The words of the learned aliases, so retrieval can gather plans whose aliases a task repeats. */
    aliasesDocument: tsvector('aliases_document').generatedAlwaysAs(sql`plan_aliases_tsvector(aliases)`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    lastReinforcedAt: ts('last_reinforced_at').notNull().defaultNow(),
  },
  (t) => [
    index('memory_records_type_status_idx').on(t.type, t.status, t.sensitivityRank),
    index('memory_records_created_idx').on(t.type, t.createdAt, t.id),
    index('memory_records_label_idx').on(t.type, t.label),
    uniqueIndex('memory_records_active_structure_uq')
      .on(t.structureKey)
      .where(sql`type = 'plan_graph' AND status = 'active' AND structure_key IS NOT NULL`),
    index('memory_records_active_shape_idx')
      .on(t.shapeKey)
      .where(sql`type = 'plan_graph' AND status = 'active' AND shape_key IS NOT NULL`),
    uniqueIndex('memory_records_skill_uq').on(t.label).where(sql`type = 'competence'`),
    index('memory_records_embedding_hnsw').using('hnsw', t.embedding.op('vector_cosine_ops')),
    index('memory_records_document_gin').using('gin', t.document),
    index('memory_records_aliases_document_gin').using('gin', t.aliasesDocument),
    // Retrieval ranks records without an embedding by confidence; this keeps that branch off a seq scan.
    index('memory_records_unembedded_idx')
      .on(t.type, t.confidence.desc(), t.id)
      .where(sql`embedding IS NULL AND status = 'active'`),
  ],
);

/** Typed links between records (derived_from, supersedes, contested_by, …). */
export const memoryRelations = pgTable(
  'memory_relations',
  {
    sourceId: uuid('source_id')
      .notNull()
      .references(() => memoryRecords.id, { onDelete: 'cascade' }),
    predicate: text('predicate').notNull(),
    targetId: uuid('target_id').notNull(),
    weight: doublePrecision('weight').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.predicate, t.targetId] }), index('memory_relations_target_idx').on(t.targetId)],
);

/** Append-only audit log of every write to a record. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    recordId: uuid('record_id').notNull(),
    action: text('action').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
    revision: integer('revision').notNull(),
    details: jsonb('details'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_record_idx').on(t.recordId, t.id)],
);

/**
 * Which episode consolidation turned into what. The primary key is the database's guarantee
 * that an episode yields at most one plan and feeds at most one competence, however many
 * consolidation passes run at once.
 */
export const consolidatedSources = pgTable(
  'consolidated_sources',
  {
    episodeId: uuid('episode_id')
      .notNull()
      .references(() => memoryRecords.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    recordId: uuid('record_id')
      .notNull()
      .references(() => memoryRecords.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.episodeId, t.kind] }), index('consolidated_sources_record_idx').on(t.recordId)],
);

/**
 * Idempotency keys of stored episodes, per principal: the primary key is what makes a retried
 * `POST /v1/episodes` (or a re-ingested file) store its episode once. `request_sha256` is the
 * episode's canonical JSON, so the same key with a different episode is told apart.
 */
export const episodeKeys = pgTable(
  'episode_keys',
  {
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    requestSha256: text('request_sha256').notNull(),
    /** Set in the transaction that inserts the key, once the episode is inserted. */
    recordId: uuid('record_id').references(() => memoryRecords.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.principal, t.key] })],
);

/** Exact execution counters of a plan; the published metrics are derived from them. */
export const planStats = pgTable('plan_stats', {
  planId: uuid('plan_id')
    .primaryKey()
    .references(() => memoryRecords.id, { onDelete: 'cascade' }),
  successes: bigint('successes', { mode: 'number' }).notNull().default(0),
  failures: bigint('failures', { mode: 'number' }).notNull().default(0),
  latencySumMs: doublePrecision('latency_sum_ms').notNull().default(0),
  latencySamples: bigint('latency_samples', { mode: 'number' }).notNull().default(0),
  lastExecutedAt: ts('last_executed_at'),
});

/** One row per workflow run of a plan: opened when it starts, closed once when it ends. */
export const planRuns = pgTable(
  'plan_runs',
  {
    workflowId: text('workflow_id').notNull(),
    runId: text('run_id').notNull(),
    planId: uuid('plan_id').notNull(),
    planRevision: integer('plan_revision').notNull(),
    status: text('status').notNull(),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
    latencyMs: doublePrecision('latency_ms'),
    error: jsonb('error'),
    /** The workflow id of the run this one resumes (docs/execution.md#resume); null for a fresh run. */
    resumedFrom: text('resumed_from'),
  },
  (t) => [
    primaryKey({ columns: [t.workflowId, t.runId] }),
    index('plan_runs_plan_idx').on(t.planId, t.startedAt),
    index('plan_runs_open_idx').on(t.startedAt).where(sql`finished_at IS NULL`),
  ],
);

/** API keys, stored as SHA-256 hashes, each naming a principal and its clearance. */
export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  keyHash: text('key_hash').notNull().unique(),
  principal: text('principal').notNull(),
  maxSensitivity: text('max_sensitivity').notNull(),
  scopes: text('scopes').array(),
  createdAt: ts('created_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
});

/** One row per consolidation pass, for /metrics and stats. */
export const consolidationPasses = pgTable('consolidation_passes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  workflowId: text('workflow_id').notNull(),
  runId: text('run_id').notNull().unique(),
  scanned: integer('scanned').notNull(),
  eligible: integer('eligible').notNull(),
  created: integer('created').notNull(),
  skipped: integer('skipped').notNull(),
  competencesCreated: integer('competences_created').notNull().default(0),
  competencesReinforced: integer('competences_reinforced').notNull().default(0),
  finishedAt: ts('finished_at').notNull().defaultNow(),
});

export const schema = {
  memoryRecords,
  memoryRelations,
  auditLog,
  consolidatedSources,
  planStats,
  planRuns,
  apiKeys,
  consolidationPasses,
  episodeKeys,
};
