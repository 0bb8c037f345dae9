/**
 * Plan checks added after runs were already in flight. Writers and starters make them
 * (validatePlanGraph's `startChecks`); workflows never do, so a run started before a check
 * existed replays exactly as it ran. Each refuses what would otherwise fail only inside a run.
 */
import { APPROVAL_OP } from './approvals';
import type { PlanIssue } from './graph';
import { durationMs } from './node-execution';
import { ONE_HISTORY_NODE_LIMIT, oneHistoryReason } from './partitioning';
import type { PlanGraphPayload } from './records';

/**
 * Longest node id and task queue name. Temporal allows 1,000 characters per id, and a node id
 * grows inside a run: map items add `[index]`, a sub-plan's child run is `<run id>/<node id>`.
 * Past Temporal's limit the run's workflow tasks would fail forever.
 */
export const MAX_NODE_ID_LENGTH = 200;
export const MAX_TASK_QUEUE_LENGTH = 200;

/** What the plan, or each node, would meet only once the run schedules it. */
export function startCheckIssues(plan: PlanGraphPayload): PlanIssue[] {
  return [...oneHistoryIssues(plan), ...nodeIssues(plan)];
}

/** A plan that cannot be partitioned and is too large for one history would be terminated mid-run. */
function oneHistoryIssues(plan: PlanGraphPayload): PlanIssue[] {
  if (plan.nodes.length <= ONE_HISTORY_NODE_LIMIT) return [];
  const reason = oneHistoryReason(plan);
  if (!reason) return [];
  return [{
    code: 'too_many_nodes',
    path: 'nodes',
    message:
      `the plan has ${plan.nodes.length} nodes and must run in one workflow history (${reason}), which holds at most ${ONE_HISTORY_NODE_LIMIT} nodes; ` +
      'plans without map, sub-plan or approval nodes and without requires_approval run partitioned at any size',
  }];
}

function nodeIssues(plan: PlanGraphPayload): PlanIssue[] {
  return plan.nodes.flatMap((node, i): PlanIssue[] => {
    const issues: PlanIssue[] = [];
    const at = `nodes[${i}]`;
    const name = `node "${node.id.slice(0, 40)}"`;
    if (node.id.length > MAX_NODE_ID_LENGTH) {
      issues.push({ code: 'invalid_schema', path: `${at}.id`, message: `${at}.id: a node id is at most ${MAX_NODE_ID_LENGTH} characters (this one has ${node.id.length})` });
    }
    const queue = node.policy?.task_queue;
    if (queue !== undefined && queue.length > MAX_TASK_QUEUE_LENGTH) {
      issues.push({ code: 'invalid_schema', path: `${at}.policy.task_queue`, message: `${name}: task_queue is at most ${MAX_TASK_QUEUE_LENGTH} characters` });
    }
    // Temporal refuses this retry policy when the node is scheduled.
    const retry = node.policy?.retry;
    if (retry?.initial_interval !== undefined && retry.maximum_interval !== undefined && durationMs(retry.maximum_interval) < durationMs(retry.initial_interval)) {
      issues.push({
        code: 'invalid_duration',
        path: `${at}.policy.retry.maximum_interval`,
        message: `${name}: retry.maximum_interval ${JSON.stringify(retry.maximum_interval)} is shorter than initial_interval ${JSON.stringify(retry.initial_interval)}`,
      });
    }
    // The executor waits for one decision per approval node: a for_each there was silently ignored.
    if (node.op === APPROVAL_OP && node.for_each !== undefined) {
      issues.push({ code: 'invalid_approval', path: `${at}.for_each`, message: `approval ${name}: an approval node cannot have for_each (one decision per node)` });
    }
    return issues;
  });
}
