/**
 * A running node's current attempt and its last attempt's failure, while the node retries. The
 * workflow learns an activity's attempts only when it finishes; Temporal's description of the run
 * lists every pending activity (by activity id, which is the node id) with both, now.
 */
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { RunStatus } from '../domain/run-state';

type PendingActivity = NonNullable<WorkflowExecutionDescription['raw']['pendingActivities']>[number];

/** `status` with each running activity node's attempt and last failure from `description`. */
export function withPendingAttempts(status: RunStatus, description: WorkflowExecutionDescription): RunStatus {
  const pending = new Map((description.raw.pendingActivities ?? []).map((activity) => [activity.activityId, activity]));
  if (pending.size === 0) return status;
  const nodes = status.nodes.map((node) => {
    const activity = node.state === 'running' ? pending.get(node.id) : undefined;
    if (!activity?.attempt) return node;
    const error = lastFailure(activity);
    return { ...node, attempts: activity.attempt, ...(error && { error }) };
  });
  return { ...status, nodes };
}

/** The last attempt's failure in the shape the executor gives a failed node's error. */
function lastFailure(activity: PendingActivity): RunStatus['nodes'][number]['error'] {
  const failure = activity.lastFailure;
  if (!failure) return undefined;
  const type = failure.applicationFailureInfo ? failure.applicationFailureInfo.type || 'Error' : failure.timeoutFailureInfo ? 'TimeoutFailure' : 'Error';
  return { type, message: failure.message ?? '' };
}
