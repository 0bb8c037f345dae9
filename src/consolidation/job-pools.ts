/**
 * Which plan an episode of an agent that never names its task joins (docs/consolidation.md#one-plan-per-job):
 * of the active plans of its shape and envelope, and those its page starts before it, the oldest
 * doing the same job (job-words.ts); else a plan of its own, named from its task.
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../store/records';
import type { PlanGraphPayload } from '../domain/records';
import { shapeKey, structureKey } from '../domain/structure';
import { jobOf, joinJobs, sameJob, type Job } from './job-words';

/**
 * Who may see a record. An episode joins only a plan it shares this with: its task phrasing and
 * values become the plan's examples, so a hyper or scoped episode must never feed a low or
 * unscoped plan. Twins of another envelope stay unconsolidated (counted as skipped).
 */
export const envelopeOf = (r: { sensitivity: string; scope: string }) => `${r.sensitivity}\u0000${r.scope}`;

/** An episode's plan whose name comes from its task's words. */
export interface JobCandidate {
  plan: PlanGraphPayload;
  /** Who may see it (sensitivity and scope): it joins only plans of its own. */
  envelope: string;
  /** What it was called before plans were named from their task: its tools (`http_request_bash`). */
  toolsIntent: string;
}

/** A plan candidates may join. */
interface JobPlan {
  intent: string;
  envelope: string;
  job: Job;
}

interface JobPlanRow extends Record<string, unknown> {
  shape: string | null;
  structure_key: string;
  intent: string;
  sensitivity: string;
  scope: string;
  plan: Pick<PlanGraphPayload, 'examples' | 'nodes' | 'edges'>;
}

/**
 * The active plans of the candidates' shapes, oldest first, by shape: those learned with a shape
 * key, and those learned before it under their tools' name (found by that name's structure key).
 */
export async function jobPlans(q: Pick<Queryable, 'execute'>, candidates: readonly JobCandidate[]): Promise<Map<string, JobPlan[]>> {
  const shapes = new Map(candidates.map((c) => [shapeKey(c.plan), c]));
  const toolKeys = new Map([...shapes].map(([shape, c]) => [structureKey({ ...c.plan, intent: c.toolsIntent }), shape]));
  const rows = (
    await q.execute<JobPlanRow>(sql`
      SELECT shape_key AS shape, structure_key, payload->>'intent' AS intent, sensitivity, scope,
             jsonb_build_object('examples', payload->'examples', 'nodes', payload->'nodes', 'edges', payload->'edges') AS plan
        FROM memory_records
       WHERE type = 'plan_graph' AND status = 'active' AND structure_key IS NOT NULL
         AND (shape_key = ANY(${sql.param([...shapes.keys()])}::text[]) OR structure_key = ANY(${sql.param([...toolKeys.keys()])}::text[]))
       ORDER BY created_at, id`)
  ).rows;
  const pools = new Map<string, JobPlan[]>();
  for (const row of rows) {
    const shape = row.shape ?? toolKeys.get(row.structure_key)!;
    const job = jobOf(row.plan);
    pools.set(shape, [...(pools.get(shape) ?? []), { intent: row.intent, envelope: envelopeOf(row), job }]);
  }
  return pools;
}

/**
 * Each candidate's plan, in order, under the intent of the plan doing its job: the oldest of its
 * shape and envelope (stored, or started earlier in the page) whose job is the same, else its own.
 */
export function assignJobs(candidates: readonly JobCandidate[], pools: Map<string, JobPlan[]>): PlanGraphPayload[] {
  return candidates.map((candidate) => {
    const shape = shapeKey(candidate.plan);
    const pool = pools.get(shape) ?? [];
    const job = jobOf(candidate.plan);
    const joined = pool.find((p) => p.envelope === candidate.envelope && sameJob(p.job, job));
    if (!joined) {
      pools.set(shape, [...pool, { intent: candidate.plan.intent, envelope: candidate.envelope, job }]);
      return candidate.plan;
    }
    joined.job = joinJobs(joined.job, job);
    return { ...candidate.plan, intent: joined.intent };
  });
}
