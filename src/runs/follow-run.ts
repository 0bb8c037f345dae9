/**
 * Following one run through its handle: polls the executor's `status` query and reports every
 * node state change until the run closes. Needs only a workflow handle, no database.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { statusQuery, type NodeStatus, type RunStatus } from '../domain/run-state';

export interface FollowOptions {
  /** How often to poll the status query. */
  pollMs?: number;
}

/**
 * The final status of a closed run: its result, the status a failed run carries in its
 * failure details, or (a cancelled run carries none) the status query, which a closed run still answers.
 */
export async function finalStatus(handle: WorkflowHandle): Promise<RunStatus> {
  try {
    return (await handle.result()) as RunStatus;
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    const details = err.cause instanceof ApplicationFailure ? (err.cause.details?.[0] as RunStatus | undefined) : undefined;
    return details?.nodes ? details : handle.query(statusQuery);
  }
}

/** Calls `onChange` for each node whose state or attempt count changed; returns the final status. */
export async function followRun(
  handle: WorkflowHandle,
  onChange: (node: NodeStatus, run: RunStatus) => void,
  options: FollowOptions = {},
): Promise<RunStatus> {
  const pollMs = options.pollMs ?? 250;
  const seen = new Map<string, string>();
  const report = (run: RunStatus) => {
    for (const node of run.nodes) {
      const key = `${node.state}/${node.attempts}`;
      if (seen.get(node.id) === key) continue;
      seen.set(node.id, key);
      onChange(node, run);
    }
  };
  let closed = false;
  const final = finalStatus(handle).finally(() => (closed = true));
  // Keep an early failure from surfacing as unhandled while the loop is between awaits.
  final.catch(() => undefined);
  while (!closed) {
    try {
      report(await handle.query(statusQuery));
    } catch {
      // A run whose first workflow task has not run yet cannot answer; the next poll will.
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([final.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, pollMs)))]);
    clearTimeout(timer);
  }
  const status = await final;
  report(status);
  return status;
}
