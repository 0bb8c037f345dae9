/**
 * Looking at and cancelling plan runs: Temporal's view of a run (state, live per-node status,
 * result) joined with its plan_runs row. A caller sees only runs of plans it may run itself.
 */
import { WorkflowFailedError, WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporalUiUrl, type Config } from '../config';
import type { TrustContext } from '../domain/records';
import { statusQuery, type RunStatus } from '../domain/run-state';
import { subPlanTargets, walkSubPlans } from '../domain/sub-plan';
import { runnableBy, visibility } from '../domain/trust';
import { DomainError } from '../domain/errors';
import { PLAN_ID_ATTRIBUTE } from '../runs/start-run';
import type { RunStore } from '../store/plan-runs';
import type { RecordStore } from '../store/records';
import { runStatusSchema } from '../domain/run-schemas';
import { withPendingAttempts } from './pending-attempts';
import { runRowSchema, type CancelResponse, type RunView, type RunViewState } from './schemas';

/** How long the live `status` query may take before the view goes without it. */
const STATUS_QUERY_TIMEOUT_MS = 5_000;
const EXECUTOR_WORKFLOW_TYPE = 'planExecutorWorkflow';

const STATE_BY_STATUS: Partial<Record<string, RunViewState>> = {
  RUNNING: 'running',
  COMPLETED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  TERMINATED: 'terminated',
  TIMED_OUT: 'timed_out',
};

/** A run's state in plangraph's words (`succeeded`, not Temporal's `COMPLETED`) from its description. */
export const runViewState = (description: WorkflowExecutionDescription): RunViewState => STATE_BY_STATUS[description.status.name] ?? 'unknown';

/** The Temporal Web UI page of one workflow run. */
export function runUiUrl(config: Config, workflowId: string, runId: string): string {
  return `${temporalUiUrl(config)}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}`;
}

export interface RunViewerDeps {
  config: Config;
  client: Client;
  records: Pick<RecordStore, 'get'>;
  runs: Pick<RunStore, 'getRun'>;
}

const iso = (v: unknown) => (v == null ? null : new Date(v as string | Date).toISOString());

/** The plan_runs row in its wire shape. */
function rowView(row: Record<string, unknown> | undefined): RunView['record'] {
  if (!row) return null;
  return runRowSchema.parse({
    ...row,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    latency_ms: row.latency_ms == null ? null : Number(row.latency_ms),
  });
}

/** The final result of a closed run: failed runs carry their RunStatus in the failure details. */
async function finalOutcome(client: Client, workflowId: string, runId: string, state: RunViewState): Promise<Pick<RunView, 'result' | 'error'>> {
  try {
    return { result: runStatusSchema.parse(await client.workflow.getHandle(workflowId, runId).result()) };
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    const cause = err.cause;
    const error = { type: cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'WorkflowFailed'), message: cause?.message ?? err.message };
    const details = runStatusSchema.safeParse(cause instanceof ApplicationFailure ? cause.details?.[0] : undefined);
    if (details.success) return { result: details.data, error };
    // A cancelled run carries no details, but a worker still answers the query of a closed run.
    const queried = await client.connection
      .withDeadline(Date.now() + STATUS_QUERY_TIMEOUT_MS, () => client.workflow.getHandle(workflowId, runId).query(statusQuery))
      .then((status) => runStatusSchema.safeParse(status), () => undefined);
    if (!queried?.success) return { error };
    return { result: state === 'terminated' || state === 'timed_out' ? endedFromOutside(queried.data, state) : queried.data, error };
  }
}

const UNFINISHED: ReadonlySet<string> = new Set(['pending', 'running', 'waiting']);

/**
 * A run Temporal ended from outside (terminated, or past its execution timeout) never got to
 * mark what it left unfinished: its last status still says running. Those nodes were cancelled.
 */
function endedFromOutside(status: RunStatus, state: 'terminated' | 'timed_out'): RunStatus {
  const reason = state === 'terminated' ? 'the run was terminated' : 'the run timed out';
  const nodes = status.nodes.map((node) => (UNFINISHED.has(node.state) ? { ...node, state: 'cancelled' as const, reason } : node));
  return { ...status, state: status.state === 'running' ? 'cancelled' : status.state, nodes };
}

/** Creates the run viewer over Temporal, the record store and the run rows. */
export function createRunViewer(deps: RunViewerDeps) {
  const { client, config } = deps;

  /** The run, if it is a plan run whose plan the caller may see and run; 404 otherwise. */
  async function describeVisible(workflowId: string, trust: TrustContext): Promise<{ description: WorkflowExecutionDescription; planId: string }> {
    const notFound = new DomainError('not_found', `no run ${workflowId}`, { workflow_id: workflowId });
    let description: WorkflowExecutionDescription;
    try {
      description = await client.workflow.getHandle(workflowId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw notFound;
      throw err;
    }
    if (description.type !== EXECUTOR_WORKFLOW_TYPE) throw notFound;
    const planId = description.typedSearchAttributes.get(PLAN_ID_ATTRIBUTE);
    const plan = planId ? await deps.records.get(planId) : undefined;
    // Same answer as for a missing run, so a caller learns nothing about runs it may not see.
    if (!plan || plan.payload.kind !== 'plan_graph' || visibility(plan, trust) !== 'visible' || !runnableBy(plan.payload, trust)) throw notFound;
    // A sub-plan node's output holds the child run's node ids and outputs: the caller must be
    // allowed to run every plan the run calls, as a caller starting it would have to be.
    if (subPlanTargets(plan.payload).size > 0) {
      const walk = await walkSubPlans({ record_id: plan.id, payload: plan.payload }, (id) => deps.records.get(id), { trust });
      if (!walk.ok) throw notFound;
    }
    return { description, planId: planId! };
  }

  return {
    /** The run's Temporal description and plan id, when the caller may see and run its plan; 404 otherwise. */
    describe: describeVisible,

    /** State, live status or result, and the plan_runs row of a run. */
    async view(workflowId: string, trust: TrustContext): Promise<RunView> {
      const { description, planId } = await describeVisible(workflowId, trust);
      const { runId } = description;
      const state = runViewState(description);
      const view: RunView = {
        workflow_id: workflowId,
        run_id: runId,
        plan_id: planId,
        state,
        started_at: description.startTime.toISOString(),
        closed_at: description.closeTime ? description.closeTime.toISOString() : null,
        record: rowView(await deps.runs.getRun(workflowId)),
        ui_url: runUiUrl(config, workflowId, runId),
      };
      if (state === 'running') {
        try {
          const status = await client.connection.withDeadline(Date.now() + STATUS_QUERY_TIMEOUT_MS, () =>
            client.workflow.getHandle(workflowId, runId).query(statusQuery),
          );
          view.status = withPendingAttempts(runStatusSchema.parse(status), description);
        } catch (err) {
          view.status_error = `status query failed: ${(err as Error).message}`;
        }
        return view;
      }
      return { ...view, ...(await finalOutcome(client, workflowId, runId, state)) };
    },

    /** Waits until the run closes or `timeoutMs` passes, whichever is first. */
    async waitFor(workflowId: string, runId: string, timeoutMs: number): Promise<void> {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        await client.connection.withAbortSignal(abort.signal, () => client.workflow.getHandle(workflowId, runId).result());
      } catch {
        // Failed, cancelled or still running when the wait ran out: the view tells which.
      } finally {
        clearTimeout(timer);
      }
    },

    /** Requests cancellation of a running run; a finished run is a 409. */
    async cancel(workflowId: string, trust: TrustContext): Promise<CancelResponse> {
      const { description } = await describeVisible(workflowId, trust);
      if (description.status.name !== 'RUNNING') {
        const state = runViewState(description);
        throw new DomainError('conflict', `run ${workflowId} is already ${state}`, { workflow_id: workflowId, state });
      }
      await client.workflow.getHandle(workflowId, description.runId).cancel().catch((err: unknown) => {
        throw endedMeanwhile(err, workflowId, 'the cancellation reached it');
      });
      return { workflow_id: workflowId, run_id: description.runId, cancel_requested: true };
    },
  };
}

export type RunViewer = ReturnType<typeof createRunViewer>;

/**
 * A run that closed between the check that it runs and the call that needs it running (Temporal
 * answers "not found"): a 409, as for any closed run. Other errors pass through.
 */
export function endedMeanwhile(err: unknown, workflowId: string, before: string): unknown {
  return err instanceof WorkflowNotFoundError ? new DomainError('conflict', `run ${workflowId} ended before ${before}`, { workflow_id: workflowId }) : err;
}
