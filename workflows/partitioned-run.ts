/**
 * A plan too large for one workflow history (docs/execution.md#plans-of-any-size): each Temporal
 * run executes one partition of the plan's topological order and continues as new with every
 * node's state (one character each) and the outputs later partitions still read. The workflow
 * id, type, search attributes and memo stay; node ids stay the activity ids; the run is opened
 * by the first partition and counted once, by the last.
 */
import {
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
  patched,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { createRunActivities } from '../activities/run-activities';
import { durationMs, runsLocally } from '../src/domain/node-execution';
import { CARRIED_STATE_LIMIT_BYTES, stateOfCode } from '../src/domain/partitioning';
import { utf8Length } from '../src/domain/payload-size';
import {
  NODE_ERROR_TYPES,
  statusQuery,
  type NodeError,
  type PartitionedRunInput,
  type RunState,
  type RunStatus,
} from '../src/domain/run-state';
import { blockingFailureIds, foldPartition, initialCarried, partitionedStatus } from './carried-state';
import { activityWork, NodeScheduler, SHARED_SCOPE_PATCH } from './node-scheduler';
import { BOUNDARY_ID_PATCH, LOCAL_RESERVE_PATCH, TASK_BUDGET_PATCH, TaskBudget } from './task-budget';
import { PlanRun } from './plan-run';

type RunActivities = ReturnType<typeof createRunActivities>;

/** Marks histories of partitioned runs (docs/workflow-changes.md). */
export const PARTITIONED_PATCH = 'executor-partitioned';
/** The carried state is measured in bytes, not UTF-16 units (carriedBytes). */
export const CARRIED_BYTES_PATCH = 'executor-carried-bytes';
/** A node whose params read an upstream output that does not resolve fails (UNRESOLVED_REF_VERSION). */
export const UNRESOLVED_REF_PATCH = 'executor-unresolved-ref';

const MAX_PARALLELISM_CAP = 1000;
const NEVER_RETRIED = [NODE_ERROR_TYPES.invalidInputs, NODE_ERROR_TYPES.unknownOp, NODE_ERROR_TYPES.invalidPlan, NODE_ERROR_TYPES.planRevised];
const { beginRun, loadPlanPartition } = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: NEVER_RETRIED },
});
const { recordRunOutcome } = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '5s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});
// Typed as the executor it continues: the same workflow type and input.
const continueRun = (next: PartitionedRunInput) => continueAsNew<(input: PartitionedRunInput) => Promise<RunStatus>>(next);

const now = () => new Date().toISOString();

/** Runs one partition of a partitioned plan, then continues as new or finishes the run. */
export async function partitionedRun(input: PartitionedRunInput): Promise<RunStatus> {
  patched(PARTITIONED_PATCH);
  const sharedScope = patched(SHARED_SCOPE_PATCH);
  const taskBudget = patched(TASK_BUDGET_PATCH) ? new TaskBudget(patched(LOCAL_RESERVE_PATCH), patched(BOUNDARY_ID_PATCH)) : undefined;
  const strictRefs = patched(UNRESOLVED_REF_PATCH);
  const info = workflowInfo();
  const spec = input.partitioned;
  const timeout = spec.constraints.timeout;
  // The run is measured from its start, as a whole run is (startTime: a first workflow task held
  // back by a start delay or a busy worker counts); its timeout runs from its first task, as there.
  const deadline = timeout === undefined ? undefined : info.runStartTime.getTime() + durationMs(timeout);
  const carried = input.carried ?? initialCarried(input, info.startTime, info.runId, deadline);
  let slice: Awaited<ReturnType<RunActivities['loadPlanPartition']>> | undefined;
  let run: PlanRun | undefined;
  const outcome: { state: RunState; finished_at?: string; error?: NodeError } = { state: 'running' };
  const partitionNodes = () => (slice && run ? slice.nodes.map((n) => ({ ...run!.status.get(n.id)! })) : []);
  setHandler(statusQuery, () => partitionedStatus(input, carried, slice, partitionNodes(), outcome));

  // Short local activities; a cancellation that arrives meanwhile is seen by the partition loop below.
  slice = await CancellationScope.nonCancellable(() =>
    loadPlanPartition({
      plan_record_id: spec.plan_record_id,
      plan_revision: spec.plan_revision,
      node_count: spec.node_count,
      partition_size: spec.partition_size,
      partition: carried.partition,
      states: carried.states,
    }),
  );
  if (slice.begin) {
    const begin = slice.begin;
    const begun = await CancellationScope.nonCancellable(() => beginRun({
      plan_record_id: spec.plan_record_id,
      plan_revision: spec.plan_revision,
      workflow_id: info.workflowId,
      run_id: info.runId,
      started_at: carried.started_at,
      inputs_schema: begin.inputs_schema,
      inputs: input.inputs,
      ops: begin.ops,
    }));
    carried.local_ops = begun.local_ops;
  }
  const localOps = new Set(carried.local_ops);
  run = new PlanRun({ nodes: [...slice.external.map((e) => e.node), ...slice.nodes], edges: slice.edges }, input.inputs, {
    id: info.firstExecutionRunId,
    workflow_id: info.workflowId,
  });
  for (const e of slice.external) run.finish(e.node.id, stateOfCode(e.code), carried.started_at, { output: carried.outputs[e.node.id] });
  const partitionRun = run;

  const failFast = (spec.constraints.failure_policy ?? 'fail_fast') === 'fail_fast';
  const maxParallel = Math.min(spec.constraints.max_parallelism ?? MAX_PARALLELISM_CAP, MAX_PARALLELISM_CAP);
  const scheduler = new NodeScheduler({
    run: partitionRun,
    failFast,
    maxParallel,
    sharedScope,
    start: (node) => {
      const local = runsLocally(node, localOps);
      partitionRun.markRunning(node.id, now(), local ? 'local' : 'activity');
      return activityWork(partitionRun, node, local, true, taskBudget, strictRefs);
    },
  });
  const sleepFor = carried.deadline_ms === undefined ? undefined : Math.max(1, carried.deadline_ms - Date.now());
  const cancelled = await scheduler.complete(sleepFor, String(timeout));

  const ending = cancelled !== undefined || scheduler.aborting !== undefined || carried.partition + 1 >= slice.partitions;
  if (ending) partitionRun.cancelPending(now(), cancelled !== undefined ? 'run cancelled' : scheduler.stopReason());
  const next = foldPartition(carried, slice, partitionRun.status, ending);
  if (!ending) {
    const nextInput: PartitionedRunInput = { ...input, carried: next };
    const size = carriedBytes(nextInput);
    // Checked before start from the output limit; this guards what that bound cannot see.
    if (size <= CARRIED_STATE_LIMIT_BYTES) return continueRun(nextInput);
    scheduler.abort({ type: NODE_ERROR_TYPES.carriedStateTooLarge, message: `the state carried to partition ${next.partition + 1} is ${size} bytes; the limit is ${CARRIED_STATE_LIMIT_BYTES}` });
    next.states = next.states.replaceAll('p', 'c');
  }
  return finish(input, next, partitionNodes(), cancelled, scheduler.aborting);
}

/**
 * The carried input's size in UTF-8 bytes, as Temporal measures payloads. Partitions before
 * CARRIED_BYTES_PATCH counted UTF-16 units, which passes non-ASCII text up to three times its
 * count; the patch is asked only where the two counts decide differently, so no other run
 * records its marker.
 */
function carriedBytes(next: PartitionedRunInput): number {
  const json = JSON.stringify(next);
  const bytes = utf8Length(json);
  const decidesAlike = (json.length <= CARRIED_STATE_LIMIT_BYTES) === (bytes <= CARRIED_STATE_LIMIT_BYTES);
  return decidesAlike || patched(CARRIED_BYTES_PATCH) ? bytes : json.length;
}

/** Ends the run: its state, the outcome counted once, and the result or failure. */
async function finish(
  input: PartitionedRunInput,
  carried: ReturnType<typeof foldPartition>,
  lastNodes: RunStatus['nodes'],
  cancelled: unknown,
  aborting: NodeError | undefined,
): Promise<RunStatus> {
  const info = workflowInfo();
  const finishedAt = now();
  let state: Exclude<RunState, 'running'> = 'succeeded';
  let error: NodeError | undefined;
  if (cancelled !== undefined) [state, error] = ['cancelled', { type: 'cancelled', message: 'run cancelled' }];
  else if (aborting) [state, error] = ['failed', aborting];
  else if (carried.blocking_failures > 0) [state, error] = ['failed', { type: NODE_ERROR_TYPES.runFailed, message: `nodes failed: ${blockingFailureIds(carried)}` }];
  const result = partitionedStatus(input, { ...carried, partition: carried.partition - 1 }, undefined, lastNodes, { state, finished_at: finishedAt, error });
  setHandler(statusQuery, () => result);
  await CancellationScope.nonCancellable(() =>
    recordRunOutcome({
      plan_record_id: input.partitioned.plan_record_id,
      plan_revision: input.partitioned.plan_revision,
      workflow_id: info.workflowId,
      run_id: carried.first_run_id,
      status: state,
      started_at: carried.started_at,
      finished_at: finishedAt,
      latency_ms: result.latency_ms ?? 0,
      error,
    }),
  );
  if (cancelled) throw cancelled;
  if (state === 'failed') {
    throw ApplicationFailure.create({ type: error?.type ?? NODE_ERROR_TYPES.runFailed, message: error?.message ?? 'run failed', nonRetryable: true, details: [result] });
  }
  return result;
}
