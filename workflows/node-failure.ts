/** The node error carried by a failed activity or child workflow, whatever wraps it. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import type { NodeError } from '../src/domain/run-state';

/** The node error and attempt count carried by an activity failure. */
export function describeFailure(err: unknown): { error: NodeError; attempts?: number } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const detail = cause.details?.[0] as { attempt?: number } | undefined;
    return { error: { type: cause.type ?? 'Error', message: cause.message }, attempts: detail?.attempt };
  }
  const e = cause instanceof Error ? cause : new Error(String(cause));
  return { error: { type: e.name, message: e.message } };
}

/** The innermost ApplicationFailure's type and message under a child workflow's failure. */
export function describeChildFailure(err: unknown): NodeError {
  let e: unknown = err;
  while (e instanceof ChildWorkflowFailure || e instanceof ActivityFailure) e = e.cause;
  return describeFailure(e).error;
}
