/**
 * How a plan node runs: as a Temporal activity (dispatched through the server to any worker) or
 * as a local activity (run by the executor's own worker inside its workflow task, recorded as a
 * marker). Local execution saves a server round trip per node, so it is for cheap nodes only: its
 * timeout is capped, and what only a real activity can do (heartbeats, another task queue)
 * forces activity execution.
 */
import type { PlanNode } from './records';

export const NODE_EXECUTIONS = ['activity', 'local'] as const;
export type NodeExecution = (typeof NODE_EXECUTIONS)[number];

/** A local node may run at most this long per attempt: longer work belongs in an activity. */
export const LOCAL_NODE_TIMEOUT_CAP_MS = 30_000;
/** Start-to-close timeout of a local node whose policy sets none. */
export const LOCAL_NODE_DEFAULT_TIMEOUT = '10s';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A plan duration written as a string: a number, optional spaces, a unit. Exactly what the
 * Temporal SDK parses: a tab or a leading space it would refuse, inside the workflow, too late.
 */
export const DURATION_PATTERN = /^(\d+(?:\.\d+)?) *(ms|s|m|h|d)$/;

/** A plan duration ("250ms", "1.5s", "5m", "2h", "1d", or a number of milliseconds) in milliseconds; NaN if malformed. */
export function durationMs(duration: string | number): number {
  if (typeof duration === 'number') return duration;
  const match = DURATION_PATTERN.exec(duration);
  if (!match) return Number.NaN;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** What makes a node unable to run locally; empty when it can. */
export function localExecutionProblems(node: Pick<PlanNode, 'policy'>): string[] {
  const policy = node.policy ?? {};
  const problems: string[] = [];
  if (policy.start_to_close_timeout !== undefined && !(durationMs(policy.start_to_close_timeout) <= LOCAL_NODE_TIMEOUT_CAP_MS)) {
    problems.push(`its start_to_close_timeout ${String(policy.start_to_close_timeout)} exceeds the ${LOCAL_NODE_TIMEOUT_CAP_MS / 1000}s cap for local nodes`);
  }
  if (policy.heartbeat_timeout !== undefined) problems.push('a local node cannot heartbeat (heartbeat_timeout is set)');
  if (policy.task_queue !== undefined) problems.push('a local node runs on the executor\'s own worker (task_queue is set)');
  return problems;
}

/**
 * Whether a node runs locally: its policy's `execution` when set (validated to be possible),
 * otherwise local exactly when its op declares itself cheap and nothing in its policy needs an
 * activity.
 */
export function runsLocally(node: Pick<PlanNode, 'op' | 'policy'>, localOps: ReadonlySet<string>): boolean {
  const chosen = node.policy?.execution;
  if (chosen !== undefined) return chosen === 'local';
  return localOps.has(node.op) && localExecutionProblems(node).length === 0;
}
