/**
 * Backfill: re-learns the stored consolidated plans from their episodes by the current rules
 * (data edges, inputs, the agent's words) and writes a new revision where the result differs.
 * Idempotent: a plan already learned by these rules is left as it is.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { EpisodicPayload, PlanGraphPayload } from '../domain/records';
import { structureKey } from '../domain/structure';
import type { Embedder } from '../embeddings/embedder';
import { eventIntent, planFromEpisode } from './episode-to-plan';
import { antiUnify } from './generalise';
import { canonicalJson } from '../domain/canonical-json';
import { reviseLearnedPlans } from './plan-revision';

export interface RegeneralizePageInput {
  /** Start after this plan record id; null for the first page. */
  after: string | null;
  page_size: number;
}

export interface RegeneralizePageResult {
  scanned: number;
  revised: number;
  next: string | null;
}

/** What a plan's learned content is, for the "already up to date" test. */
const learnedContent = (p: PlanGraphPayload) => canonicalJson([p.intent, p.description, p.examples, p.inputs_schema, p.nodes, p.edges]);

/**
 * The plan its episodes (oldest first) teach by the current rules: the first episode's plan,
 * folded with every episode of the same structure. An episode named from its task's words joined
 * the plan as doing its job (job-pools.ts), so its own name gives way to the first one's.
 * Undefined without episodes.
 */
export function relearn(stored: PlanGraphPayload, episodes: readonly EpisodicPayload[]): PlanGraphPayload | undefined {
  const plans = episodes.map((e) => ({ plan: planFromEpisode(e, stored.plan_id, ''), taskNamed: eventIntent(e) === undefined }));
  const [first, ...rest] = plans;
  if (!first) return undefined;
  const key = structureKey(first.plan);
  const twins = rest.map(({ plan, taskNamed }) => (taskNamed ? { ...plan, intent: first.plan.intent } : plan));
  const folded = twins.filter((p) => structureKey(p) === key).reduce(antiUnify, first.plan);
  return { ...folded, plan_id: stored.plan_id, version: stored.version, constraints: stored.constraints, metrics: stored.metrics };
}

/** Creates the backfill over a database and an optional embedder. */
export function createRegeneralizer(deps: { db: Db; embedder?: Embedder }) {
  const { db, embedder } = deps;
  return {
    /** Re-learns one page of active consolidated plans (keyset on id), each in its own transaction. */
    async regeneralizePage(input: RegeneralizePageInput): Promise<RegeneralizePageResult> {
      const after = input.after ? sql`AND id > ${input.after}::uuid` : sql``;
      const ids = (
        await db.execute<{ id: string }>(sql`
          SELECT id FROM memory_records
           WHERE type = 'plan_graph' AND status = 'active' AND 'consolidated' = ANY(tags) ${after}
           ORDER BY id LIMIT ${input.page_size}`)
      ).rows.map((r) => r.id);
      let revised = 0;
      for (const id of ids) {
        revised += await db.transaction(async (tx) => {
          const locked = (
            await tx.execute<{ revision: number; payload: PlanGraphPayload; structure_key: string | null }>(sql`
              SELECT revision, payload, structure_key FROM memory_records WHERE id = ${id}::uuid AND status = 'active' FOR UPDATE`)
          ).rows[0];
          if (!locked) return 0;
          const episodes = (
            await tx.execute<{ payload: EpisodicPayload }>(sql`
              SELECT r.payload FROM consolidated_sources c JOIN memory_records r ON r.id = c.episode_id
               WHERE c.kind = 'plan' AND c.record_id = ${id}::uuid ORDER BY r.created_at, r.id`)
          ).rows.map((r) => r.payload);
          const relearned = relearn(locked.payload, episodes);
          if (!relearned || learnedContent(relearned) === learnedContent(locked.payload)) return 0;
          // A new structure another active plan already has stays as it is (the unique index would refuse it).
          const key = structureKey(relearned);
          if (key !== locked.structure_key) {
            const twin = await tx.execute(sql`SELECT 1 FROM memory_records WHERE type = 'plan_graph' AND status = 'active' AND structure_key = ${key}`);
            if (twin.rows.length > 0) return 0;
          }
          const created = await reviseLearnedPlans(tx, [{ id, revision: locked.revision, payload: relearned }], {
            embedder,
            reason: 'regeneralized from its episodes',
          });
          return created.length;
        });
      }
      return { scanned: ids.length, revised, next: ids.length === input.page_size ? ids.at(-1)! : null };
    },
  };
}
