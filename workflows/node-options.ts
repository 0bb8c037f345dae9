/**
 * Temporal options for a plan node, from its policy: the same retries and timeouts whether the
 * node runs as an activity or as a local activity.
 */
import { ActivityCancellationType, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import { LOCAL_NODE_DEFAULT_TIMEOUT } from '../src/domain/node-execution';
import type { PlanNode } from '../src/domain/records';
import { NODE_ERROR_TYPES } from '../src/domain/run-state';

/** Defaults for a node without a policy: bounded retries, never forever. */
const DEFAULT_NODE_RETRY = { maximumAttempts: 3, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' } as const;
const ALWAYS_NON_RETRYABLE = [NODE_ERROR_TYPES.invalidParams, NODE_ERROR_TYPES.unknownOp, NODE_ERROR_TYPES.outputTooLarge];

export function retryPolicy(node: PlanNode): NonNullable<ActivityOptions['retry']> {
  const retry = node.policy?.retry ?? {};
  return {
    maximumAttempts: retry.maximum_attempts ?? DEFAULT_NODE_RETRY.maximumAttempts,
    initialInterval: retry.initial_interval ?? DEFAULT_NODE_RETRY.initialInterval,
    backoffCoefficient: retry.backoff_coefficient ?? DEFAULT_NODE_RETRY.backoffCoefficient,
    maximumInterval: retry.maximum_interval ?? DEFAULT_NODE_RETRY.maximumInterval,
    nonRetryableErrorTypes: [...ALWAYS_NON_RETRYABLE, ...(retry.non_retryable_error_types ?? [])],
  };
}

/** What the UI shows for a node's activity or local-activity marker: its op and node id. */
export const nodeSummary = (node: PlanNode) => `${node.op} · ${node.id}`;

/** A node run as an activity: its activity id is its node id. */
export function activityOptions(node: PlanNode): ActivityOptions {
  const policy = node.policy ?? {};
  return {
    activityId: node.id,
    summary: nodeSummary(node),
    taskQueue: policy.task_queue,
    startToCloseTimeout: policy.start_to_close_timeout ?? '5m',
    scheduleToCloseTimeout: policy.schedule_to_close_timeout,
    heartbeatTimeout: policy.heartbeat_timeout,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
    retry: retryPolicy(node),
  };
}

/**
 * A node run as a local activity. Local activities have no activity id of their own, so the
 * marker's summary names the node; backoffs longer than a few seconds wait on a server timer
 * rather than holding the workflow task open.
 */
export function localActivityOptions(node: PlanNode): LocalActivityOptions {
  const policy = node.policy ?? {};
  return {
    summary: nodeSummary(node),
    startToCloseTimeout: policy.start_to_close_timeout ?? LOCAL_NODE_DEFAULT_TIMEOUT,
    scheduleToCloseTimeout: policy.schedule_to_close_timeout,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
    localRetryThreshold: '5s',
    retry: retryPolicy(node),
  };
}
