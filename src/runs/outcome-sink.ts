/**
 * The run-outcome sink: how a worker closes a run's row and counts it in its plan's metrics for
 * runs of executor version 2 (OUTCOME_SINK_VERSION). The workflow hands the outcome to the sink in
 * its final activation; the worker runs the sink after that activation and before it reports the
 * workflow task to Temporal, so the row is closed by the time the run's result can be read, with
 * no local activity (an activity execution, one more activation and a marker event per run).
 *
 * Exactly once: closeRun counts only the statement that closes an open row, so a second call for
 * the same run (the final workflow task re-run on another worker after a crash, a retry racing a
 * late first attempt) counts nothing. When Postgres cannot take the outcome, the run still
 * completes (no run waits on bookkeeping); the worker keeps retrying in the background, and a run
 * whose worker stopped before it got through stays open until the reconciler (src/runs/reconcile.ts)
 * counts it from what Temporal recorded. Replaying never calls a sink.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { InjectedSinks } from '@temporalio/worker';
import type { RunOutcome, RunOutcomeSinks } from '../domain/run-state';
import type { RunStore } from '../store/plan-runs';

export interface OutcomeSinkOptions {
  runs: Pick<RunStore, 'closeRun'>;
  log: { warn(message: string, meta?: Record<string, unknown>): void; info(message: string, meta?: Record<string, unknown>): void };
  /** How long the final workflow task waits for the outcome to be written before it completes anyway. */
  waitMs?: number;
  /** Backoff between attempts: the first, doubled up to the cap. */
  retryInitialMs?: number;
  retryMaxMs?: number;
}

/** Well inside Temporal's 10 s workflow-task timeout. */
const DEFAULT_WAIT_MS = 2_000;
const DEFAULT_RETRY_INITIAL_MS = 200;
const DEFAULT_RETRY_MAX_MS = 60_000;

/** The sink a worker registers; `pending()` counts outcomes still being retried in the background. */
export function createRunOutcomeSink(options: OutcomeSinkOptions): { sinks: InjectedSinks<RunOutcomeSinks>; pending(): number } {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const maxMs = options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS;
  let pending = 0;

  /** Writes the outcome, retrying with backoff until Postgres takes it (or the process ends). */
  const write = async (outcome: RunOutcome): Promise<void> => {
    let backoff = options.retryInitialMs ?? DEFAULT_RETRY_INITIAL_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await options.runs.closeRun(outcome);
        if (attempt > 1) options.log.info('run outcome recorded after retries', { workflowId: outcome.workflow_id, attempt });
        return;
      } catch (err) {
        if (attempt === 1) options.log.warn('run outcome not recorded yet; retrying in the background', { workflowId: outcome.workflow_id, error: String(err) });
        // Unref'd: a worker that shuts down leaves the rest to the reconciler.
        await delay(backoff, undefined, { ref: false });
        backoff = Math.min(backoff * 2, maxMs);
      }
    }
  };

  const record = async (outcome: RunOutcome): Promise<void> => {
    pending += 1;
    const written = write(outcome).finally(() => (pending -= 1));
    // A plain timer, cleared: aborting a timers/promises delay builds an AbortError per run.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs).unref();
    });
    await Promise.race([written, bound]);
    clearTimeout(timer);
  };

  return {
    sinks: { runOutcome: { record: { fn: (_info, outcome) => record(outcome), callDuringReplay: false } } },
    pending: () => pending,
  };
}

/** What a replaying worker registers: the workflow still names the sink, and replay never calls it. */
export const REPLAY_OUTCOME_SINKS: InjectedSinks<RunOutcomeSinks> = {
  runOutcome: { record: { fn: () => undefined, callDuringReplay: false } },
};
