/**
 * Reconciling run rows whose workflow closed without its outcome reaching Postgres: a terminated
 * or timed-out executor never records one, and a run whose worker stopped while Postgres was
 * unreachable (src/runs/outcome-sink.ts) completed without it, so its row would stay open and its
 * plan's metrics would never count it. Each such row is closed from what Temporal says about the
 * execution, through the same exactly-once closeRun the finalizer uses.
 */
import { WorkflowNotFoundError, type Client, type WorkflowExecutionStatusName } from '@temporalio/client';
import { NODE_ERROR_TYPES, type NodeError, type RunOutcome } from '../domain/run-state';
import type { OpenRun, RunStore } from '../store/plan-runs';

export interface ReconcileOptions {
  /** Only rows of runs started before this instant (default: now). */
  olderThan?: Date;
  /** Rows read per page. */
  pageSize?: number;
  /** Called after each page, e.g. to heartbeat. */
  onPage?: (report: ReconcileReport) => void;
}

export interface ReconcileReport {
  /** Open rows looked at. */
  checked: number;
  /** Rows this call closed and counted in their plan's metrics. */
  closed: number;
  /** Rows whose workflow is still running (left open). */
  running: number;
  /** Rows whose workflow Temporal no longer knows (left open: the outcome is unknowable). */
  missing: number;
  /** Rows that could not be checked this time (left open for the next pass). */
  errors: number;
}

/** How a closed execution that skipped the finalizer is counted. */
export function outcomeOfClosedStatus(status: WorkflowExecutionStatusName): { status: RunOutcome['status']; error?: NodeError } {
  switch (status) {
    case 'COMPLETED':
      return { status: 'succeeded' };
    case 'FAILED':
      return { status: 'failed', error: { type: NODE_ERROR_TYPES.runFailed, message: 'run failed; counted from Temporal\'s record of the execution' } };
    case 'CANCELLED':
      return { status: 'cancelled', error: { type: 'cancelled', message: 'run cancelled' } };
    case 'TERMINATED':
      return { status: 'failed', error: { type: 'terminated', message: 'workflow terminated before the run finished' } };
    case 'TIMED_OUT':
      return { status: 'failed', error: { type: 'timed_out', message: 'workflow execution timed out' } };
    default:
      return { status: 'failed', error: { type: 'workflow_closed', message: `workflow closed as ${status} without recording its outcome` } };
  }
}

type RunsPort = Pick<RunStore, 'openRuns' | 'closeRun'>;

/** Closes one open row if its workflow has closed; says what it found. */
async function reconcileRun(client: Client, runs: RunsPort, row: OpenRun): Promise<keyof Omit<ReconcileReport, 'checked'> | 'unchanged'> {
  let description;
  let startTime;
  try {
    description = await client.workflow.getHandle(row.workflow_id, row.run_id).describe();
    startTime = description.startTime;
    // A partitioned run continues as new per partition: its outcome is the latest run's.
    if (description.status.name === 'CONTINUED_AS_NEW') description = await client.workflow.getHandle(row.workflow_id).describe();
  } catch (err) {
    return err instanceof WorkflowNotFoundError ? 'missing' : 'errors';
  }
  const closeTime = description.closeTime;
  if (description.status.name === 'RUNNING' || !closeTime) return 'running';
  const counted = await runs.closeRun({
    plan_record_id: row.plan_id,
    plan_revision: row.plan_revision,
    workflow_id: row.workflow_id,
    run_id: row.run_id,
    started_at: startTime.toISOString(),
    finished_at: closeTime.toISOString(),
    latency_ms: Math.max(0, closeTime.getTime() - startTime.getTime()),
    ...outcomeOfClosedStatus(description.status.name),
  });
  // Not counted: the finalizer (or another reconciler) closed it first.
  return counted ? 'closed' : 'unchanged';
}

/** Closes every open run row whose workflow is closed, each counted exactly once. */
export async function reconcileOpenRuns(deps: { client: Client; runs: RunsPort }, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const olderThan = options.olderThan ?? new Date();
  const pageSize = options.pageSize ?? 200;
  const report: ReconcileReport = { checked: 0, closed: 0, running: 0, missing: 0, errors: 0 };
  let after: OpenRun | undefined;
  for (;;) {
    const rows = await deps.runs.openRuns(olderThan, pageSize, after);
    for (const row of rows) {
      report.checked += 1;
      const found = await reconcileRun(deps.client, deps.runs, row);
      if (found !== 'unchanged') report[found] += 1;
    }
    options.onPage?.(report);
    if (rows.length < pageSize) return report;
    after = rows[rows.length - 1];
  }
}
