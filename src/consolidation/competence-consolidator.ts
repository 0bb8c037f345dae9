/**
 * Competence consolidation: successful episodes no competence has counted yet, grouped by tool
 * signature; each group of two or more creates its skill or reinforces the existing one. The
 * claim rows (consolidated_sources, kind 'competence') make every episode feed a skill once,
 * even with two passes at once; the unique index on skill names makes each skill exist once.
 */
import { sql } from 'drizzle-orm';
import { claimSources } from './claim-sources';
import type { Db } from '../db/client';
import type { Embedder } from '../embeddings/embedder';
import { SENSITIVITIES, sensitivityRank, type EpisodicPayload, type Sensitivity } from '../domain/records';
import { embeddingText, type Queryable } from '../store/records';
import {
  COMPETENCE_CONFIDENCE,
  COMPETENCE_TAGS,
  competencePayload,
  groupCompetenceSources,
  MIN_COMPETENCE_GROUP,
  MIXED_SCOPE,
  REINFORCE_GAIN,
  type CompetenceGroup,
} from './competence-rules';
import { timelineSpanMs } from './episode-to-plan';
import { CONSOLIDATION_ACTOR } from './plan-consolidator';
import type { CompetenceCounts } from './result';

/** Salience a new skill starts with, so reinforcement (+0.1, capped at 1) has room to show. */
export const INITIAL_SKILL_SALIENCE = 0.5;

interface SourceRow extends Record<string, unknown> {
  id: string;
  sensitivity: Sensitivity;
  scope: string;
  tools: string[];
  timeline: EpisodicPayload['timeline'];
}

/** Skills by name. */
async function skillsNamed(q: Pick<Queryable, 'execute'>, names: string[]): Promise<Map<string, string>> {
  const result = await q.execute<{ id: string; label: string }>(sql`
    SELECT id, label FROM memory_records WHERE type = 'competence' AND label = ANY(${sql.param(names)}::text[])`);
  return new Map(result.rows.map((r) => [r.label, r.id]));
}

/** Creates the competence consolidator over a database and an optional embedder. */
export function createCompetenceConsolidator(deps: { db: Db; embedder?: Embedder }) {
  const { db, embedder } = deps;

  async function pendingSources() {
    const result = await db.execute<SourceRow>(sql`
      SELECT r.id, r.sensitivity, r.scope,
             jsonb_path_query_array(r.payload, '$.tool_graph[*].tool') AS tools,
             coalesce(r.payload->'timeline', '[]'::jsonb) AS timeline
        FROM memory_records r
       WHERE r.type = 'episodic' AND r.payload->>'outcome' = 'success'
         AND NOT EXISTS (SELECT 1 FROM consolidated_sources c WHERE c.episode_id = r.id AND c.kind = 'competence')`);
    return result.rows.map((row) => ({ ...row, latency_ms: timelineSpanMs({ timeline: row.timeline }) }));
  }

  /** Rows of the skills no one has learned yet, embedded in one call. */
  async function newSkillRows(groups: CompetenceGroup[], existing: Map<string, string>, now: string) {
    const fresh = groups.filter((g) => !existing.has(g.skill_name));
    const payloads = fresh.map((g) => competencePayload(g, now));
    const embeddings = embedder && fresh.length > 0 ? await embedder.embed(payloads.map(embeddingText)) : [];
    return fresh.map((g, i) => ({
      sensitivity: g.sensitivity,
      sensitivity_rank: sensitivityRank(g.sensitivity),
      scope: g.scope,
      payload: payloads[i],
      label: g.skill_name,
      embedding: embeddings[i] ? JSON.stringify(embeddings[i]) : null,
      embedder: embeddings[i] ? embedder!.name : null,
    }));
  }

  return {
    /**
     * Groups every pending successful episode by signature and, in one transaction, creates the
     * skills of new groups and reinforces the existing skills of the others.
     */
    async consolidate(): Promise<CompetenceCounts> {
      const counts: CompetenceCounts = { competences_created: 0, competences_reinforced: 0, competence_sources: 0 };
      const groups = groupCompetenceSources(await pendingSources());
      if (groups.length === 0) return counts;
      const now = new Date().toISOString();
      const names = groups.map((g) => g.skill_name);
      const fresh = (await newSkillRows(groups, await skillsNamed(db, names), now)).sort((a, b) => (a.label < b.label ? -1 : 1));

      const outcome = await db.transaction(async (tx) => {
        // Sorted by name so concurrent passes take the unique-index entries in the same order.
        const inserted = fresh.length === 0 ? [] : (
          await tx.execute<{ id: string }>(sql`
            INSERT INTO memory_records (type, sensitivity, sensitivity_rank, confidence, salience, scope, tags, payload, label, embedding, embedder)
            SELECT 'competence', x.sensitivity, x.sensitivity_rank, ${COMPETENCE_CONFIDENCE}, ${INITIAL_SKILL_SALIENCE}, x.scope,
                   ${sql.param([...COMPETENCE_TAGS])}::text[], x.payload, x.label, x.embedding::vector, x.embedder
              FROM jsonb_to_recordset(${JSON.stringify(fresh)}::jsonb)
                AS x(sensitivity text, sensitivity_rank smallint, scope text, payload jsonb, label text, embedding text, embedder text)
             ORDER BY x.label
            ON CONFLICT (label) WHERE type = 'competence' DO NOTHING
            RETURNING id`)
        ).rows;
        const created = new Set(inserted.map((r) => r.id));
        const skillIds = await skillsNamed(tx, names);
        const claims = groups.flatMap((g) => g.episode_ids.map((episode_id) => ({ episode_id, record_id: skillIds.get(g.skill_name) })));
        // Episodes another pass claimed meanwhile went to the same skill (same signature, same name).
        const claimed = (
          await tx.execute<{ skill_id: string; episodes: string[] }>(sql`
            WITH ${claimSources('competence', sql`jsonb_to_recordset(${JSON.stringify(claims)}::jsonb) AS x(episode_id uuid, record_id uuid)`)}
            SELECT record_id AS skill_id, array_agg(episode_id ORDER BY episode_id) AS episodes FROM claimed GROUP BY record_id`)
        ).rows;
        const groupBySkill = new Map(groups.map((g) => [skillIds.get(g.skill_name), g]));
        const audits = claimed.filter((c) => created.has(c.skill_id));
        // Reinforcement needs a group's worth of new episodes, like creation does.
        const reinforcements = claimed
          .filter((c) => !created.has(c.skill_id) && c.episodes.length >= MIN_COMPETENCE_GROUP)
          .sort((a, b) => (a.skill_id < b.skill_id ? -1 : 1))
          .map((c) => {
            const group = groupBySkill.get(c.skill_id)!;
            return { id: c.skill_id, rank: sensitivityRank(group.sensitivity), scope: group.scope, episodes: c.episodes };
          });
        // A new skill all of whose episodes another pass took must not survive.
        await tx.execute(sql`
          DELETE FROM memory_records r WHERE r.id = ANY(${sql.param([...created])}::uuid[])
             AND NOT EXISTS (SELECT 1 FROM consolidated_sources c WHERE c.record_id = r.id AND c.kind = 'competence')`);
        await tx.execute(sql`
          INSERT INTO audit_log (record_id, action, actor, reason, revision, details)
          SELECT x.skill_id, 'create', ${CONSOLIDATION_ACTOR}, 'consolidated from successful episodes', 1, jsonb_build_object('derived_from', x.episodes)
            FROM jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) AS x(skill_id uuid, episodes jsonb)`);
        // A reinforced skill also reflects its new sources: the highest sensitivity, a shared scope or mixed.
        await tx.execute(sql`
          WITH input AS (
            SELECT * FROM jsonb_to_recordset(${JSON.stringify(reinforcements)}::jsonb) AS x(id uuid, rank smallint, scope text, episodes jsonb)
          ), reinforced AS (
            UPDATE memory_records r
               SET salience = LEAST(1, r.salience + ${REINFORCE_GAIN}),
                   sensitivity_rank = GREATEST(r.sensitivity_rank, i.rank),
                   sensitivity = (${sql.param([...SENSITIVITIES])}::text[])[GREATEST(r.sensitivity_rank, i.rank) + 1],
                   scope = CASE WHEN r.scope = i.scope THEN r.scope ELSE ${MIXED_SCOPE} END,
                   last_reinforced_at = now(), updated_at = now()
              FROM input i WHERE r.id = i.id
            RETURNING r.id, r.revision, i.episodes
          )
          INSERT INTO audit_log (record_id, action, actor, reason, revision, details)
          SELECT id, 'reinforce', ${CONSOLIDATION_ACTOR}, 'more successful episodes with this tool signature', revision,
                 jsonb_build_object('derived_from', episodes, 'gain', ${REINFORCE_GAIN}::float8)
            FROM reinforced`);
        return {
          competences_created: audits.length,
          competences_reinforced: reinforcements.length,
          competence_sources: claimed.reduce((n, c) => n + c.episodes.length, 0),
        };
      });
      return outcome;
    },
  };
}

export type CompetenceConsolidator = ReturnType<typeof createCompetenceConsolidator>;
