/**
 * Consolidation activities: one page of plan consolidation per call, the competence step and the
 * pass record. Each heartbeats its progress; a page retried after its transaction committed
 * returns the result its heartbeat carried instead of redoing the page.
 */
import { Context } from '@temporalio/activity';
import { createCompetenceConsolidator } from '../src/consolidation/competence-consolidator';
import { createPassStore, type PassRecord } from '../src/consolidation/pass-store';
import { createPlanConsolidator, type PagePhase } from '../src/consolidation/plan-consolidator';
import type { CompetenceCounts, PlanPageInput, PlanPageResult } from '../src/consolidation/result';
import { createRegeneralizer, type RegeneralizePageInput, type RegeneralizePageResult } from '../src/consolidation/regeneralize';
import type { Db } from '../src/db/client';
import type { Embedder } from '../src/embeddings/embedder';
import { createStatisticsRefresher } from '../src/store/planner-statistics';

/** Heartbeat details of a page: its phase, and its result once committed. */
export interface PageHeartbeat {
  phase: PagePhase | 'started' | 'committed';
  input: PlanPageInput;
  result?: PlanPageResult;
}

/** Creates the consolidation activities over their dependencies. */
export function createConsolidationActivities(deps: { db: Db; embedder?: Embedder; generalise?: boolean }) {
  const plans = createPlanConsolidator(deps);
  const competences = createCompetenceConsolidator(deps);
  const passes = createPassStore(deps.db);
  const regeneralizer = createRegeneralizer(deps);
  const statistics = createStatisticsRefresher(deps.db);
  return {
    /** Consolidates the page after `input.after`; returns its counts and the next cursor. */
    async consolidatePlanPage(input: PlanPageInput): Promise<PlanPageResult> {
      const context = Context.current();
      const previous = context.info.heartbeatDetails as PageHeartbeat | undefined;
      if (previous?.result) return previous.result;
      context.heartbeat({ phase: 'started', input } satisfies PageHeartbeat);
      const result = await plans.consolidatePage(input, (phase) => context.heartbeat({ phase, input } satisfies PageHeartbeat));
      context.heartbeat({ phase: 'committed', input, result } satisfies PageHeartbeat);
      return result;
    },

    /** Re-learns one page of stored plans from their episodes (each plan its own transaction, so a retry skips the done ones). */
    async regeneralizePlanPage(input: RegeneralizePageInput): Promise<RegeneralizePageResult> {
      Context.current().heartbeat({ phase: 'started', input });
      return regeneralizer.regeneralizePage(input);
    },

    /** Creates or reinforces skills from pending successful episodes (one transaction, so a retry redoes it whole). */
    async consolidateCompetences(): Promise<CompetenceCounts> {
      Context.current().heartbeat({ phase: 'started' });
      return competences.consolidate();
    },

    /** Analyzes the tables a pass writes when they changed enough since their last analysis (src/store/planner-statistics.ts). */
    async refreshPlannerStatistics(): Promise<{ analyzed: string[] }> {
      const context = Context.current();
      return { analyzed: await statistics.refreshStale(() => context.heartbeat()) };
    },

    /** Records the finished pass (idempotent on the run id). */
    async recordConsolidationPass(pass: PassRecord): Promise<void> {
      await passes.record(pass);
    },
  };
}
