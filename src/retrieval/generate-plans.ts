/**
 * Bulk generation of plan-graph records with embeddings, for benchmarks and load tests: N
 * distinct, valid plans written in batches of multi-row inserts (one round trip per batch for
 * records and one for their counters), with varied sensitivity, metrics and recency.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { SENSITIVITIES, sensitivityRank, type PlanGraphPayload, type Sensitivity } from '../domain/records';
import { structureKey } from '../domain/structure';
import { hashEmbedder, type Embedder } from '../embeddings/embedder';
import { seededRandom } from '../prng';
import { planEmbeddingText } from '../store/records';

const VERBS = ['deploy', 'backup', 'migrate', 'summarise', 'index', 'provision', 'audit', 'sync', 'archive', 'scan', 'build', 'notify'];
const OBJECTS = ['database', 'service', 'report', 'repository', 'cluster', 'invoice', 'dataset', 'website', 'mailbox', 'ticket', 'bucket', 'cache'];
const QUALIFIERS = ['nightly', 'for staging', 'for production', 'incrementally', 'with checks', 'quickly', 'safely', 'to the cloud'];
const OPS = ['noop', 'echo', 'json_pick', 'json_merge', 'sleep'];

export interface GeneratePlansOptions {
  count: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
  /** Embeds the plan documents; the built-in hash embedder by default, null for no embeddings. */
  embedder?: Embedder | null;
  /** Scope of every generated plan ("" = unscoped). */
  scope?: string;
  /** Tag added to every plan so a run's plans can be found (and deleted) again. */
  tag?: string;
  /** Sensitivities to draw from, uniformly. */
  sensitivities?: readonly Sensitivity[];
  /** Seed of the deterministic pseudo-random choices. */
  seed?: number;
  now?: Date;
  /**
   * Drop the HNSW index while loading and rebuild it once at the end: several times faster for
   * large loads into a benchmark database. Never use it on a database others are querying.
   */
  deferIndex?: boolean;
  onProgress?(inserted: number): void;
}

const HNSW_INDEX = 'memory_records_embedding_hnsw';

/** The intent of the i-th generated plan: readable words plus its number, so each is distinct. */
export function generatedIntent(i: number, random: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  return `${pick(VERBS)} the ${pick(OBJECTS)} ${pick(QUALIFIERS)} #${i}`;
}

function generatedPlan(i: number, random: () => number): PlanGraphPayload {
  const size = 3 + Math.floor(random() * 5);
  const nodes = Array.from({ length: size }, (_, k) => ({ id: `s${k + 1}`, op: OPS[Math.floor(random() * OPS.length)]!, params: {}, guards: {} }));
  const edges = nodes.slice(1).map((node, k) => ({ from: nodes[k]!.id, to: node.id, kind: 'control' as const }));
  return {
    kind: 'plan_graph',
    plan_id: `gen-${i}-${randomUUID().slice(0, 8)}`,
    version: '1',
    intent: generatedIntent(i, random),
    constraints: { failure_policy: 'fail_fast' },
    inputs_schema: {},
    outputs_schema: {},
    nodes,
    edges,
    metrics: { execution_count: 0, failure_rate: 0, avg_latency_ms: 0, last_executed_at: null },
  };
}

/** Inserts `count` generated plans (with plan_stats counters); returns how many and how long it took. */
export async function generatePlans(db: Db, options: GeneratePlansOptions): Promise<{ inserted: number; ms: number }> {
  const started = Date.now();
  const random = seededRandom(options.seed ?? 42);
  const batchSize = options.batchSize ?? 1000;
  const embedder = options.embedder === undefined ? hashEmbedder : options.embedder;
  const sensitivities = options.sensitivities ?? SENSITIVITIES;
  const now = (options.now ?? new Date()).getTime();
  let inserted = 0;
  const indexDef = options.deferIndex
    ? (await db.execute<{ indexdef: string }>(sql`SELECT indexdef FROM pg_indexes WHERE indexname = ${HNSW_INDEX}`)).rows[0]?.indexdef
    : undefined;
  if (indexDef) await db.execute(sql.raw(`DROP INDEX ${HNSW_INDEX}`));
  for (let offset = 0; offset < options.count; offset += batchSize) {
    const n = Math.min(batchSize, options.count - offset);
    const plans = Array.from({ length: n }, (_, k) => generatedPlan(offset + k, random));
    const vectors = embedder ? await embedder.embed(plans.map((p) => planEmbeddingText(p))) : null;
    const ids = plans.map(() => randomUUID());
    const levels = plans.map(() => sensitivities[Math.floor(random() * sensitivities.length)]!);
    const reinforced = plans.map(() => new Date(now - random() * 120 * 86_400_000).toISOString());
    const successes = plans.map(() => Math.floor(random() * 20));
    const failures = plans.map(() => Math.floor(random() * 5));
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO memory_records (id, type, sensitivity, sensitivity_rank, confidence, salience, scope, tags, status, revision,
          payload, label, structure_key, embedding, embedder, created_at, updated_at, last_reinforced_at)
        SELECT id, 'plan_graph', sens, rank, conf, 0, ${options.scope ?? ''}, ${options.tag ? sql`ARRAY[${options.tag}]::text[]` : sql`'{}'::text[]`},
               'active', 1, payload, label, skey, emb::vector, CASE WHEN emb IS NULL THEN NULL ELSE ${embedder?.name ?? null}::text END, now(), now(), reinforced
        FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(levels)}::text[], ${sql.param(levels.map(sensitivityRank))}::smallint[], ${sql.param(plans.map(() => 0.3 + random() * 0.7))}::float8[],
                    ${sql.param(plans.map((p) => JSON.stringify(p)))}::jsonb[], ${sql.param(plans.map((p) => p.intent))}::text[], ${sql.param(plans.map(structureKey))}::text[],
                    ${sql.param(vectors ? vectors.map((v) => `[${v.join(',')}]`) : plans.map(() => null))}::text[], ${sql.param(reinforced)}::timestamptz[])
          AS t(id, sens, rank, conf, payload, label, skey, emb, reinforced)`);
      await tx.execute(sql`INSERT INTO plan_stats (plan_id, successes, failures, latency_sum_ms, latency_samples, last_executed_at)
        SELECT id, s, f, (s + f) * 120.0, s + f, CASE WHEN s + f > 0 THEN now() END
        FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(successes)}::bigint[], ${sql.param(failures)}::bigint[]) AS t(id, s, f)`);
    });
    inserted += n;
    options.onProgress?.(inserted);
  }
  if (indexDef) await db.execute(sql.raw(indexDef));
  return { inserted, ms: Date.now() - started };
}
