/** The node error carried by a failed activity or child workflow, whatever wraps it. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import type { NodeError } from '../src/domain/run-state';

/**
 * The node error and attempt count carried by an activity failure. An op's own failure carries
 * its attempt; a timeout carries none, but an activity's that used up the retry policy ran
 * `maximumAttempts` attempts (0 there means unlimited, so unknown). A local activity's timeout
 * says only that it was cancelled, so its attempts stay unknown.
 */
export function describeFailure(err: unknown, maximumAttempts?: number): { error: NodeError; attempts?: number } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const detail = cause.details?.[0] as { attempt?: number } | undefined;
    return { error: { type: cause.type ?? 'Error', message: cause.message }, attempts: detail?.attempt };
  }
  const e = cause instanceof Error ? cause : new Error(String(cause));
  const exhausted = err instanceof ActivityFailure && err.retryState === 'MAXIMUM_ATTEMPTS_REACHED' && maximumAttempts ? maximumAttempts : undefined;
  return { error: { type: e.name, message: e.message }, attempts: exhausted };
}

/** The innermost ApplicationFailure's type and message under a child workflow's failure. */
export function describeChildFailure(err: unknown): NodeError {
  let e: unknown = err;
  while (e instanceof ChildWorkflowFailure || e instanceof ActivityFailure) e = e.cause;
  return describeFailure(e).error;
}
