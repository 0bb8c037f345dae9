/**
 * What a consolidation pass reports (docs/consolidation.md: `{scanned, eligible, created, skipped}`, plus the
 * dedup links, the episodes whose tool graph cannot form a runnable plan, and competences).
 */
import { z } from 'zod';

export const planCountsSchema = z.object({
  /** Episodes looked at. */
  scanned: z.number().int(),
  /** Episodes with 3 or more tool nodes. */
  eligible: z.number().int(),
  /** New plan graphs stored. */
  created: z.number().int(),
  /** Episodes counted as one more execution of an existing plan with the same structure. */
  linked: z.number().int(),
  /** Eligible episodes already consolidated (by an earlier or a concurrent pass) or unusable. */
  skipped: z.number().int(),
  /** Eligible episodes skipped because their tool graph is not a runnable plan (e.g. a cycle). */
  invalid: z.number().int(),
  /** Plans given a new revision: newly linked twins changed what they generalise (or --regeneralize). */
  revised: z.number().int().default(0),
});
export type PlanCounts = z.infer<typeof planCountsSchema>;

export const competenceCountsSchema = z.object({
  competences_created: z.number().int(),
  competences_reinforced: z.number().int(),
  /** Successful episodes newly attributed to a competence. */
  competence_sources: z.number().int(),
});
export type CompetenceCounts = z.infer<typeof competenceCountsSchema>;

export const consolidationResultSchema = planCountsSchema.extend(competenceCountsSchema.shape);
export type ConsolidationResult = z.infer<typeof consolidationResultSchema>;

/** Position in the episode stream: keyset on (created_at, id); created_at keeps Postgres' µs. */
export interface EpisodeCursor {
  created_at: string;
  id: string;
}

export interface PlanPageInput {
  /** Start after this episode; null for the first page. */
  after: EpisodeCursor | null;
  page_size: number;
}

export interface PlanPageResult extends PlanCounts {
  /** Where the next page starts; null when this page was the last. */
  next: EpisodeCursor | null;
}
