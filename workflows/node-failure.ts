/** How a node's failure reads in the run status: its error and the attempt count its activity reported. */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
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
