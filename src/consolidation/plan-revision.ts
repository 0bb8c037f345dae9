/**
 * New revisions of learned plans whose generalisation changed, by the supersede rules: the old
 * record becomes `superseded` (revision bumped) and a new record `supersedes` it, so runs stay
 * pinned to the record they started with. Set-based: a handful of statements for any number of
 * plans. The new record takes over the plan's episodes (consolidated_sources, `derived_from`)
 * and starts from its counters, so the learned plan's execution count stays whole.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PlanGraphPayload } from '../domain/records';
import { shapeKey, structureKey } from '../domain/structure';
import type { Embedder } from '../embeddings/embedder';
import { embeddingText, type Queryable } from '../store/records';
import { nextVersion } from '../store/revisions';

export const CONSOLIDATION_ACTOR = 'consolidation';

/** A learned plan to revise: the revision it must still be at, and its new payload. */
export interface PlanRevision {
  id: string;
  revision: number;
  payload: PlanGraphPayload;
}

/**
 * Supersedes each plan still active at the expected revision by a new record with the new
 * payload (which keeps the plan's plan_id; its version is bumped). Plans another writer changed meanwhile are left alone.
 * Returns the ids of the new records. Call inside a transaction.
 */
export async function reviseLearnedPlans(
  tx: Pick<Queryable, 'execute'>,
  revisions: readonly PlanRevision[],
  options: { embedder?: Embedder; reason: string },
): Promise<string[]> {
  if (revisions.length === 0) return [];
  const sorted = [...revisions].sort((a, b) => (a.id < b.id ? -1 : 1));
  const embeddings = options.embedder ? await options.embedder.embed(sorted.map((r) => embeddingText(r.payload))) : [];
  const rows = sorted.map((r, i) => {
    const payload = { ...r.payload, version: nextVersion(r.payload.version) };
    return {
      old_id: r.id,
      expected: r.revision,
      new_id: randomUUID(),
      payload,
      label: payload.intent,
      structure_key: structureKey(payload),
      shape_key: shapeKey(payload),
      embedding: embeddings[i] ? JSON.stringify(embeddings[i]) : null,
      embedder: embeddings[i] ? options.embedder!.name : null,
    };
  });
  const revised = await tx.execute<{ old_id: string; new_id: string }>(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(old_id uuid, expected int, new_id uuid, payload jsonb, label text, structure_key text, shape_key text, embedding text, embedder text)
    ), superseded AS (
      UPDATE memory_records r SET status = 'superseded', revision = r.revision + 1, updated_at = now()
        FROM input i
       WHERE r.id = i.old_id AND r.status = 'active' AND r.revision = i.expected
      RETURNING r.id, r.revision, r.sensitivity, r.sensitivity_rank, r.confidence, r.salience, r.scope, r.tags, r.aliases
    ), created AS (
      -- The phrasings the plan learned still name what it does: the new revision keeps them.
      INSERT INTO memory_records (id, type, sensitivity, sensitivity_rank, confidence, salience, scope, tags, aliases, payload, label, structure_key, shape_key, embedding, embedder)
      SELECT i.new_id, 'plan_graph', s.sensitivity, s.sensitivity_rank, s.confidence, s.salience, s.scope, s.tags, s.aliases,
             i.payload, i.label, i.structure_key, i.shape_key, i.embedding::vector, i.embedder
        FROM input i JOIN superseded s ON s.id = i.old_id
       ORDER BY i.structure_key
      RETURNING id
    ), audited AS (
      INSERT INTO audit_log (record_id, action, actor, reason, revision, details)
      SELECT s.id, 'revise', ${CONSOLIDATION_ACTOR}, ${options.reason}, s.revision,
             jsonb_build_object('operation', 'generalise', 'superseded_by', i.new_id)
        FROM input i JOIN superseded s ON s.id = i.old_id
      UNION ALL
      SELECT i.new_id, 'create', ${CONSOLIDATION_ACTOR}, ${options.reason}, 1,
             jsonb_build_object('operation', 'generalise', 'supersedes', i.old_id)
        FROM input i JOIN superseded s ON s.id = i.old_id
    )
    SELECT i.old_id::text AS old_id, i.new_id::text AS new_id FROM input i JOIN superseded s ON s.id = i.old_id`);
  const pairs = revised.rows;
  if (pairs.length === 0) return [];
  const moved = JSON.stringify(pairs);
  // Separate statements: each must see the new records the one above inserted.
  await tx.execute(sql`
    WITH pairs AS (SELECT * FROM jsonb_to_recordset(${moved}::jsonb) AS x(old_id uuid, new_id uuid)),
    relations AS (
      INSERT INTO memory_relations (source_id, predicate, target_id, weight)
      SELECT p.new_id, 'supersedes', p.old_id, 1 FROM pairs p
      UNION ALL
      SELECT p.new_id, 'derived_from', m.target_id, m.weight
        FROM pairs p JOIN memory_relations m ON m.source_id = p.old_id AND m.predicate = 'derived_from'
      ON CONFLICT DO NOTHING
    ), stats AS (
      INSERT INTO plan_stats (plan_id, successes, failures, latency_sum_ms, latency_samples, last_executed_at)
      SELECT p.new_id, s.successes, s.failures, s.latency_sum_ms, s.latency_samples, s.last_executed_at
        FROM pairs p JOIN plan_stats s ON s.plan_id = p.old_id
      ON CONFLICT (plan_id) DO NOTHING
    )
    UPDATE consolidated_sources c SET record_id = p.new_id FROM pairs p WHERE c.record_id = p.old_id AND c.kind = 'plan'`);
  return pairs.map((p) => p.new_id);
}
