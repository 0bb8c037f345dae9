/**
 * The consolidation pass (docs/consolidation.md): plan-graph consolidation page by page (one activity per
 * page, the cursor kept here so a crashed worker's page is simply retried), then the competence
 * step, then the pass record. Run on a cron schedule, by a Schedule, or once on demand.
 */
import { continueAsNew, log, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createConsolidationActivities } from '../activities/consolidation-activities';
import type { createReconcileActivities } from '../activities/reconcile-activities';
import type { ConsolidationResult, EpisodeCursor, PlanCounts } from '../src/consolidation/result';
import { consolidationProgressQuery, type ConsolidationProgress } from '../src/domain/consolidation-progress';

type ConsolidationActivities = ReturnType<typeof createConsolidationActivities>;

// Postgres being down for a while must delay a pass, not fail it: retry without a cap.
const { consolidatePlanPage, regeneralizePlanPage, consolidateCompetences, refreshPlannerStatistics, recordConsolidationPass } = proxyActivities<ConsolidationActivities>({
  startToCloseTimeout: '10m',
  heartbeatTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

// Closes run rows of executors terminated before their finalizer (docs/execution.md#metrics-exactly-once metrics).
const { reconcileOpenRuns } = proxyActivities<ReturnType<typeof createReconcileActivities>>({
  startToCloseTimeout: '10m',
  heartbeatTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export interface ConsolidationInput {
  /** Episodes per page activity (CONSOLIDATION_PAGE_SIZE). */
  page_size: number;
  /** Set by continue-as-new: where the previous run stopped and what it had counted. */
  after?: EpisodeCursor | null;
  counted?: PlanCounts;
  /** Also re-learn the stored consolidated plans from their episodes (`consolidate --regeneralize`). */
  regeneralize?: boolean;
}

const NOTHING: PlanCounts = { scanned: 0, eligible: 0, created: 0, linked: 0, skipped: 0, invalid: 0, revised: 0 };

function add(a: PlanCounts, b: PlanCounts): PlanCounts {
  return {
    scanned: a.scanned + b.scanned,
    eligible: a.eligible + b.eligible,
    created: a.created + b.created,
    linked: a.linked + b.linked,
    skipped: a.skipped + b.skipped,
    invalid: a.invalid + b.invalid,
    // Absent from page results recorded before plans were revised by consolidation.
    revised: (a.revised ?? 0) + (b.revised ?? 0),
  };
}

/** One consolidation pass over every episode; returns what it did. */
export async function consolidationWorkflow(input: ConsolidationInput): Promise<ConsolidationResult> {
  const pageSize = input.page_size;
  let counted = input.counted ?? NOTHING;
  let after = input.after ?? null;
  let step: ConsolidationProgress['step'] = 'episodes';
  // A query records no event: histories recorded before it replay unchanged.
  setHandler(consolidationProgressQuery, () => {
    const { scanned, eligible, created, linked, revised } = counted;
    return { step, scanned, eligible, created, linked, revised: revised ?? 0 };
  });
  // Bulk writes leave the planner's statistics stale (an ingest before the pass, the pass itself):
  // refreshed before the first page and after the plans and competences, each time only when stale. Added after
  // histories were recorded, hence the patch.
  const refreshStatistics = async () => {
    if (patched('refresh-planner-statistics')) log.info('planner statistics', { ...(await refreshPlannerStatistics()) });
  };
  if (!input.after) await refreshStatistics();
  do {
    const page = await consolidatePlanPage({ after, page_size: pageSize });
    counted = add(counted, page);
    after = page.next;
    // A pass over millions of episodes must not outgrow one run's history.
    if (after && workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof consolidationWorkflow>({ page_size: pageSize, after, counted, regeneralize: input.regeneralize });
    }
  } while (after);

  // Only passes asked for it run this, so histories of other passes replay unchanged.
  if (input.regeneralize) {
    step = 'regeneralize';
    let from: string | null = null;
    do {
      const page: { revised: number; next: string | null } = await regeneralizePlanPage({ after: from, page_size: pageSize });
      counted = { ...counted, revised: (counted.revised ?? 0) + page.revised };
      from = page.next;
    } while (from);
  }

  step = 'competences';
  const competences = await consolidateCompetences();
  step = 'recording';
  await refreshStatistics();
  // Added after histories were recorded: patched() keeps those replaying without this step.
  if (patched('reconcile-open-runs')) log.info('reconciled open runs', { ...(await reconcileOpenRuns()) });
  const result: ConsolidationResult = { ...counted, ...competences };
  const { workflowId, runId } = workflowInfo();
  await recordConsolidationPass({ workflow_id: workflowId, run_id: runId, ...result });
  return result;
}
