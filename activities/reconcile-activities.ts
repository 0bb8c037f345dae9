/**
 * The reconciliation activity the consolidation pass calls: closes run rows whose workflow ended
 * without its finalizer (terminated, timed out). Safe to retry: closing a run is exactly-once.
 */
import { Context, getClient } from '@temporalio/activity';
import { reconcileOpenRuns, type ReconcileReport } from '../src/runs/reconcile';
import type { RunStore } from '../src/store/plan-runs';

/** Creates the reconciliation activity over the run store; Temporal is reached through the worker's client. */
export function createReconcileActivities(deps: { runs: Pick<RunStore, 'openRuns' | 'closeRun'> }) {
  return {
    /** Closes and counts every open run row whose workflow is closed. */
    async reconcileOpenRuns(): Promise<ReconcileReport> {
      const context = Context.current();
      return reconcileOpenRuns({ client: getClient(), runs: deps.runs }, { onPage: (report) => context.heartbeat(report) });
    },
  };
}
