/**
 * Learned aliases: task phrasings a plan turned out to serve (a run picked by plan_id after
 * `needs_more` succeeded, or the plan was reinforced for a task). Retrieval matches a task against
 * them as whole phrasings (src/domain/alias-match.ts; their words are indexed in
 * `aliases_document`), so the next request phrased the same way matches directly, without their
 * incidental words drawing other requests to the plan. Deduplicated (case and spacing ignored),
 * bounded to the newest MAX_ALIASES, audited; not a revision of the plan.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memoryRecords } from '../db/schema';
import { appendAudit } from './record-log';

/** Most aliases a plan keeps; the oldest give way. */
export const MAX_ALIASES = 20;
/** Longest alias kept, in characters (a task descriptor is a phrase, not a document). */
export const MAX_ALIAS_LENGTH = 300;

/** Trims and collapses whitespace; undefined when nothing is left. */
export function normaliseAlias(text: string): string | undefined {
  const alias = text.replace(/\s+/g, ' ').trim().slice(0, MAX_ALIAS_LENGTH);
  return alias || undefined;
}

/** The alias list after learning `alias`: unchanged when already known, else appended and bounded. */
export function withAlias(aliases: readonly string[], alias: string): string[] | undefined {
  const key = alias.toLowerCase();
  if (aliases.some((a) => a.toLowerCase() === key)) return undefined;
  return [...aliases, alias].slice(-MAX_ALIASES);
}

export interface LearnResult {
  id: string;
  alias: string;
  learned: boolean;
  aliases: string[];
}

/** Creates the alias learner over a database. */
export function createAliasLearner(db: Db) {
  return {
    /**
     * Adds a task descriptor to an active plan's aliases (no-op if known or not a plan) and appends
     * an audit `learn_alias` entry. Safe to repeat.
     */
    async learn(id: string, taskDescriptor: string, actor: string, source: string): Promise<LearnResult | undefined> {
      const alias = normaliseAlias(taskDescriptor);
      if (!alias) return undefined;
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ aliases: memoryRecords.aliases, revision: memoryRecords.revision })
          .from(memoryRecords)
          .where(and(eq(memoryRecords.id, id), eq(memoryRecords.type, 'plan_graph'), eq(memoryRecords.status, 'active')))
          .for('update');
        if (!row) return undefined;
        const aliases = withAlias(row.aliases, alias);
        if (!aliases) return { id, alias, learned: false, aliases: row.aliases };
        await tx
          .update(memoryRecords)
          .set({ aliases, updatedAt: sql`now()` })
          .where(eq(memoryRecords.id, id));
        await appendAudit(tx, { id, action: 'learn_alias', actor, reason: source, revision: row.revision, details: { alias, aliases: aliases.length } });
        return { id, alias, learned: true, aliases };
      });
    },
  };
}

export type AliasLearner = ReturnType<typeof createAliasLearner>;
