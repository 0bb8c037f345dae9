/**
 * Plan-graph consolidation of one page of episodes, set-based: a handful of statements per page
 * whatever its size. Correctness under concurrent passes rests on the database: the primary key
 * of consolidated_sources (one plan per episode) and the unique index on the structure key of
 * active plans (one plan per structure), both written with ON CONFLICT DO NOTHING.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { claimSources } from './claim-sources';
import type { Db } from '../db/client';
import type { Queryable } from '../store/records';
import type { Embedder } from '../embeddings/embedder';
import { sensitivityRank, type EpisodicPayload, type PlanGraphPayload, type Sensitivity } from '../domain/records';
import { shapeKey, structureKey } from '../domain/structure';
import { antiUnify, generalisationKey, mergeExamples } from './generalise';
import { CONSOLIDATION_ACTOR, reviseLearnedPlans, type PlanRevision } from './plan-revision';
import { ACCUMULATE_PLAN_STATS } from '../store/plan-runs';
import { embeddingText } from '../store/records';
import {
  convertedPlanIssues,
  eventIntent,
  executionSample,
  inferIntent,
  MIN_TOOL_NODES,
  planFromEpisode,
  PLAN_CONFIDENCE,
  PLAN_TAGS,
  type ExecutionSample,
} from './episode-to-plan';
import type { EpisodeCursor, PlanPageInput, PlanPageResult } from './result';
import { assignJobs, envelopeOf, jobPlans } from './job-pools';

export { CONSOLIDATION_ACTOR };

interface PageRow extends Record<string, unknown> {
  id: string;
  created_at: string;
  sensitivity: Sensitivity;
  scope: string;
  eligible: boolean;
  consolidated: boolean;
  /** Only fetched for eligible episodes not consolidated yet: a repeat pass reads no payloads. */
  payload: EpisodicPayload | null;
}

/** An episode about to become (or join) a plan. */
interface Candidate {
  episode_id: string;
  sensitivity: Sensitivity;
  scope: string;
  plan: PlanGraphPayload;
  key: string;
  sample: ExecutionSample;
}

/** Phases of a page, reported so the calling activity can heartbeat between them. */
export type PagePhase = 'fetched' | 'prepared';

const ACTIVE_PLAN = sql`type = 'plan_graph' AND status = 'active' AND structure_key IS NOT NULL`;

/** An active plan locked for the rest of a page's transaction. */
interface LockedPlan extends PlanRevision, Record<string, unknown> {
  structure_key: string;
  sensitivity: Sensitivity;
  scope: string;
}

/** The plan an episode's structure maps to, and who may see it. */
interface PlanRef {
  id: string;
  envelope: string;
}

/**
 * One plan standing for twins first seen together: generalised, their anti-unification;
 * otherwise the first one, with every twin's task phrasing among its examples.
 */
function foldTwins(plans: readonly PlanGraphPayload[], generalise: boolean): PlanGraphPayload {
  const [first, ...rest] = plans;
  if (generalise) return rest.reduce(antiUnify, first!);
  return { ...first!, examples: rest.reduce((examples, p) => mergeExamples(examples, p.examples), first!.examples) };
}

/**
 * Creates the plan consolidator over a database and an optional embedder. With `generalise`
 * (the default) plans get data edges and inputs, and a plan whose newly linked twins change its
 * generalisation gets a new revision; without it, each plan replays its first episode's literals.
 */
export function createPlanConsolidator(deps: { db: Db; embedder?: Embedder; generalise?: boolean }) {
  const { db, embedder } = deps;
  const generalise = deps.generalise ?? true;

  async function fetchPage(input: PlanPageInput): Promise<PageRow[]> {
    const after = input.after ? sql`AND (r.created_at, r.id) > (${input.after.created_at}::timestamptz, ${input.after.id}::uuid)` : sql``;
    const result = await db.execute<PageRow>(sql`
      SELECT r.id, r.created_at::text AS created_at, r.sensitivity, r.scope,
             coalesce(jsonb_array_length(r.payload->'tool_graph'), 0) >= ${MIN_TOOL_NODES} AS eligible,
             c.episode_id IS NOT NULL AS consolidated,
             CASE WHEN c.episode_id IS NULL AND coalesce(jsonb_array_length(r.payload->'tool_graph'), 0) >= ${MIN_TOOL_NODES}
                  THEN r.payload END AS payload
        FROM memory_records r
        LEFT JOIN consolidated_sources c ON c.episode_id = r.id AND c.kind = 'plan'
       WHERE r.type = 'episodic' ${after}
       ORDER BY r.created_at, r.id
       LIMIT ${input.page_size}`);
    return result.rows;
  }

  /** New plan rows for the structures no active plan has yet, embedded in one call. */
  async function newPlanRows(groups: Map<string, Candidate[]>, existing: Map<string, PlanRef>, now: string) {
    const firsts = [...groups.entries()]
      .filter(([key]) => !existing.has(key))
      .map(([, members]) => {
        const twins = members.filter((m) => envelopeOf(m) === envelopeOf(members[0]!));
        return { ...members[0]!, plan: foldTwins(twins.map((m) => m.plan), generalise) };
      });
    const embeddings = embedder && firsts.length > 0 ? await embedder.embed(firsts.map((c) => embeddingText(c.plan))) : [];
    return firsts.map((c, i) => {
      const id = randomUUID();
      const plan: PlanGraphPayload = { ...c.plan, plan_id: id, metrics: { ...c.plan.metrics, last_executed_at: now } };
      return {
        id,
        sensitivity: c.sensitivity,
        sensitivity_rank: sensitivityRank(c.sensitivity),
        scope: c.scope,
        payload: plan,
        label: plan.intent,
        structure_key: c.key,
        shape_key: shapeKey(plan),
        embedding: embeddings[i] ? JSON.stringify(embeddings[i]) : null,
        embedder: embeddings[i] ? embedder!.name : null,
      };
    });
  }

  return {
    /**
     * Consolidates one page of episodes (keyset after `input.after`) in one transaction: new
     * plans for new structures, links to existing plans for known ones, counters in plan_stats
     * for every episode this call claimed. Safe to repeat and to run beside another pass.
     */
    async consolidatePage(input: PlanPageInput, onPhase?: (phase: PagePhase) => void): Promise<PlanPageResult> {
      const rows = await fetchPage(input);
      onPhase?.('fetched');
      const last = rows.at(-1);
      const next: EpisodeCursor | null = rows.length === input.page_size && last ? { created_at: last.created_at, id: last.id } : null;
      const eligible = rows.filter((r) => r.eligible).length;
      const result: PlanPageResult = { scanned: rows.length, eligible, created: 0, linked: 0, skipped: eligible, invalid: 0, revised: 0, next };

      const now = new Date().toISOString();
      const converted: Array<{ row: PageRow & { payload: EpisodicPayload }; plan: PlanGraphPayload }> = [];
      for (const row of rows) {
        if (!row.payload) continue;
        const plan = planFromEpisode(row.payload, row.id, now, { generalise });
        if (convertedPlanIssues(plan).length > 0) result.invalid += 1;
        else converted.push({ row: { ...row, payload: row.payload }, plan });
      }
      await joinTaskNamedJobs(db, converted);
      const groups = new Map<string, Candidate[]>();
      for (const { row, plan } of converted) {
        const key = structureKey(plan);
        const candidate = { episode_id: row.id, sensitivity: row.sensitivity, scope: row.scope, plan, key, sample: executionSample(row.payload) };
        groups.set(key, [...(groups.get(key) ?? []), candidate]);
      }
      if (groups.size === 0) {
        result.skipped = eligible - result.invalid;
        return result;
      }

      const existing = await activePlans(db, [...groups.keys()]);
      const fresh = await newPlanRows(groups, existing, now);
      onPhase?.('prepared');

      const outcome = await db.transaction(async (tx) => {
        // Sorted by key so concurrent passes take the unique-index entries in the same order.
        const sorted = [...fresh].sort((a, b) => (a.structure_key < b.structure_key ? -1 : 1));
        const inserted = sorted.length === 0 ? [] : (
          await tx.execute<{ id: string; structure_key: string; sensitivity: string; scope: string }>(sql`
            INSERT INTO memory_records (id, type, sensitivity, sensitivity_rank, confidence, scope, tags, payload, label, structure_key, shape_key, embedding, embedder)
            SELECT x.id, 'plan_graph', x.sensitivity, x.sensitivity_rank, ${PLAN_CONFIDENCE}, x.scope, ${sql.param([...PLAN_TAGS])}::text[],
                   x.payload, x.label, x.structure_key, x.shape_key, x.embedding::vector, x.embedder
              FROM jsonb_to_recordset(${JSON.stringify(sorted)}::jsonb) AS x(id uuid, sensitivity text, sensitivity_rank smallint,
                   scope text, payload jsonb, label text, structure_key text, shape_key text, embedding text, embedder text)
             ORDER BY x.structure_key
            ON CONFLICT (structure_key) WHERE ${ACTIVE_PLAN} DO NOTHING
            RETURNING id, structure_key, sensitivity, scope`)
        ).rows;
        const planByKey = new Map(generalise ? [] : existing);
        for (const row of inserted) planByKey.set(row.structure_key, { id: row.id, envelope: envelopeOf(row) });
        // Generalising, the existing plans are locked (their twins may revise them) and read as
        // they are now; a structure a concurrent pass stored meanwhile is visible once it commits.
        const locked = generalise ? await lockActivePlans(tx, [...groups.keys()].filter((key) => !planByKey.has(key))) : [];
        for (const plan of locked) planByKey.set(plan.structure_key, { id: plan.id, envelope: envelopeOf(plan) });
        const lost = fresh.map((f) => f.structure_key).filter((key) => !planByKey.has(key));
        for (const [key, ref] of await activePlans(tx, lost)) planByKey.set(key, ref);

        const claims = [...groups.values()].flat().flatMap((c) => {
          const plan = planByKey.get(c.key);
          if (!plan || plan.envelope !== envelopeOf(c)) return [];
          return [{ episode_id: c.episode_id, plan_id: plan.id, successes: c.sample.successes, failures: c.sample.failures, latency_ms: c.sample.latency_ms ?? null }];
        });
        const claimed = (
          await tx.execute<{ episode_id: string }>(sql`
            WITH input AS (
              SELECT * FROM jsonb_to_recordset(${JSON.stringify(claims)}::jsonb)
                AS x(episode_id uuid, plan_id uuid, successes int, failures int, latency_ms float8)
            ), ${claimSources('plan', sql`(SELECT episode_id, plan_id AS record_id FROM input) AS source`)}, counted AS (
              INSERT INTO plan_stats AS s (plan_id, successes, failures, latency_sum_ms, latency_samples, last_executed_at)
              SELECT c.record_id, sum(i.successes), sum(i.failures), coalesce(sum(i.latency_ms), 0), count(i.latency_ms), now()
                FROM claimed c JOIN input i ON i.episode_id = c.episode_id
               GROUP BY c.record_id ORDER BY c.record_id
              ${ACCUMULATE_PLAN_STATS}
            )
            SELECT episode_id FROM claimed`)
        ).rows;
        const revised = (await reviseLearnedPlans(tx, revisions(locked, groups, new Set(claimed.map((c) => c.episode_id))), { embedder, reason: 'newly linked twins changed the generalisation' })).length;

        const newIds = inserted.map((r) => r.id);
        if (newIds.length === 0) return { claimed: claimed.length, created: 0, revised };
        // A new plan none of whose episodes this pass could claim (another pass got them all)
        // must not survive; the others get their audit entry.
        const created = (
          await tx.execute(sql`
            WITH orphans AS (
              DELETE FROM memory_records r
               WHERE r.id = ANY(${sql.param(newIds)}::uuid[])
                 AND NOT EXISTS (SELECT 1 FROM consolidated_sources c WHERE c.record_id = r.id AND c.kind = 'plan')
            )
            INSERT INTO audit_log (record_id, action, actor, reason, revision, details)
            SELECT c.record_id, 'create', ${CONSOLIDATION_ACTOR}, 'consolidated from an episode', 1,
                   jsonb_build_object('derived_from', jsonb_agg(c.episode_id ORDER BY c.episode_id))
              FROM consolidated_sources c
             WHERE c.kind = 'plan' AND c.record_id = ANY(${sql.param(newIds)}::uuid[])
             GROUP BY c.record_id
            RETURNING record_id`)
        ).rows.length;
        return { claimed: claimed.length, created, revised };
      });

      result.created = outcome.created;
      result.revised = outcome.revised;
      result.linked = outcome.claimed - outcome.created;
      result.skipped = eligible - result.invalid - outcome.claimed;
      return result;
    },
  };
}

/**
 * Locks the active plans with these structure keys, in key order (so concurrent passes cannot
 * deadlock), and reads them as committed now. A plan superseded while this waited for its lock
 * drops out; its successor is looked up and locked by the next round.
 */
async function lockActivePlans(q: Pick<Queryable, 'execute'>, keys: string[]): Promise<LockedPlan[]> {
  const found: LockedPlan[] = [];
  let missing = keys;
  for (let round = 0; round < 3 && missing.length > 0; round++) {
    const rows = (
      await q.execute<LockedPlan>(sql`
        SELECT id, revision, payload, structure_key, sensitivity, scope FROM memory_records
         WHERE ${ACTIVE_PLAN} AND structure_key = ANY(${sql.param(missing)}::text[])
         ORDER BY structure_key FOR UPDATE`)
    ).rows.filter((row) => row.structure_key !== null);
    found.push(...rows);
    const got = new Set(rows.map((r) => r.structure_key));
    missing = missing.filter((key) => !got.has(key));
  }
  return found;
}

/** The locked plans whose generalisation changes once their newly claimed twins are folded in. */
function revisions(locked: readonly LockedPlan[], groups: Map<string, Candidate[]>, claimed: ReadonlySet<string>): PlanRevision[] {
  return locked.flatMap((plan) => {
    const twins = (groups.get(plan.structure_key) ?? []).filter((c) => claimed.has(c.episode_id)).map((c) => c.plan);
    if (twins.length === 0) return [];
    const folded = foldTwins([plan.payload, ...twins], true);
    return generalisationKey(folded) === generalisationKey(plan.payload) ? [] : [{ id: plan.id, revision: plan.revision, payload: folded }];
  });
}

/**
 * Renames in place the plans of episodes whose events never name their task to the job each
 * joins (job-pools.ts); plans named by an event kind keep their name.
 */
async function joinTaskNamedJobs(q: Pick<Queryable, 'execute'>, converted: Array<{ row: PageRow & { payload: EpisodicPayload }; plan: PlanGraphPayload }>) {
  const taskNamed = converted.filter(({ row }) => eventIntent(row.payload) === undefined);
  if (taskNamed.length === 0) return;
  const candidates = taskNamed.map(({ row, plan }) => ({ plan, envelope: envelopeOf(row), toolsIntent: inferIntent(row.payload) }));
  const plans = assignJobs(candidates, await jobPlans(q, candidates));
  taskNamed.forEach((entry, i) => (entry.plan = plans[i]!));
}

/** Active plans by structure key. */
async function activePlans(q: Pick<Queryable, 'execute'>, keys: string[]): Promise<Map<string, PlanRef>> {
  if (keys.length === 0) return new Map();
  const result = await q.execute<{ id: string; structure_key: string; sensitivity: string; scope: string }>(sql`
    SELECT id, structure_key, sensitivity, scope FROM memory_records WHERE ${ACTIVE_PLAN} AND structure_key = ANY(${sql.param(keys)}::text[])`);
  return new Map(result.rows.map((r) => [r.structure_key, { id: r.id, envelope: envelopeOf(r) }]));
}

export type PlanConsolidator = ReturnType<typeof createPlanConsolidator>;
