/**
 * Reinforcement (docs/selection.md#reinforcement): a record proved useful, so it becomes recent again and more salient.
 * Reinforcing is feedback, not a revision: it leaves the revision number alone.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { memoryRecords } from '../db/schema';
import { DomainError } from '../domain/errors';
import type { AliasLearner } from '../store/aliases';
import { successorId } from '../store/plan-lock';
import { appendAudit } from '../store/record-log';

/** Salience added per reinforcement unless the caller names another gain. */
export const DEFAULT_REINFORCE_GAIN = 0.1;

export const reinforceInputSchema = z.strictObject({
  reason: z.string().max(2000).optional(),
  gain: z.number().min(0).max(1).default(DEFAULT_REINFORCE_GAIN),
  /** The task the plan served: it joins the plan's learned aliases. */
  task_descriptor: z.string().min(1).max(2000).optional(),
});
export type ReinforceInput = z.input<typeof reinforceInputSchema>;

export interface ReinforceResult {
  id: string;
  salience: number;
  last_reinforced_at: string;
  revision: number;
  /** The alias learned from task_descriptor, when it was new. */
  learned_alias?: string;
}

/** Creates the reinforcer over a database and, to learn aliases from task descriptors, an alias learner. */
export function createReinforcer(db: Db, aliases?: Pick<AliasLearner, 'learn'>) {
  return {
    /**
     * Sets last_reinforced_at and updated_at to now, adds the gain to salience (capped at 1,
     * never lowering a salience already above it) and appends an audit `reinforce` entry.
     * Active records only: a retracted, superseded or merged one is never selected again, so
     * reinforcing it is the caller's mistake and is refused (409), changing nothing.
     */
    async reinforce(id: string, actor: string, input: ReinforceInput = {}): Promise<ReinforceResult> {
      const { reason, gain, task_descriptor } = reinforceInputSchema.parse(input);
      if (!z.uuid().safeParse(id).success) throw new DomainError('not_found', `no record ${id}`, { id });
      const result = await db.transaction(async (tx) => {
        const salience = memoryRecords.salience;
        const [row] = await tx
          .update(memoryRecords)
          .set({ salience: sql`GREATEST(${salience}, LEAST(1, ${salience} + ${gain}))`, lastReinforcedAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(eq(memoryRecords.id, id), ne(memoryRecords.type, 'episodic'), eq(memoryRecords.status, 'active')))
          .returning({ id: memoryRecords.id, salience, lastReinforcedAt: memoryRecords.lastReinforcedAt, revision: memoryRecords.revision });
        if (!row) return refuse(tx, id);
        await appendAudit(tx, { id, action: 'reinforce', actor, reason, revision: row.revision, details: { gain, salience: row.salience } });
        return { id: row.id, salience: row.salience, last_reinforced_at: row.lastReinforcedAt.toISOString(), revision: row.revision };
      });
      const learned = task_descriptor && aliases ? await aliases.learn(id, task_descriptor, actor, 'reinforced for a task') : undefined;
      return learned?.learned ? { ...result, learned_alias: learned.alias } : result;
    },
  };
}

export type Reinforcer = ReturnType<typeof createReinforcer>;

/**
 * Explains why nothing was updated: unknown record, an episode (immutable once stored), or a
 * record no longer active — retracted (`plan_retracted`), or superseded or merged (`conflict`
 * naming the successor, as revising it would).
 */
async function refuse(tx: Pick<Db, 'select'>, id: string): Promise<never> {
  const [found] = await tx.select({ type: memoryRecords.type, status: memoryRecords.status }).from(memoryRecords).where(eq(memoryRecords.id, id));
  if (!found) throw new DomainError('not_found', `no record ${id}`, { id });
  if (found.type === 'episodic') throw new DomainError('not_a_plan', `record ${id} is an episode; episodes are immutable and cannot be reinforced`, { id, type: 'episodic' });
  if (found.status === 'retracted') throw new DomainError('plan_retracted', `plan ${id} is retracted and cannot be reinforced`, { id, status: found.status });
  throw new DomainError('conflict', `plan ${id} is ${found.status} and is never selected again, so it cannot be reinforced`, {
    id,
    status: found.status,
    successor_id: await successorId(tx, id),
  });
}
