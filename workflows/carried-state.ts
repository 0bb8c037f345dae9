/**
 * The state a partitioned run hands from one partition to the next, and the status it answers:
 * pure, so the partition loop stays about scheduling.
 */
import {
  CARRIED_ERROR_MESSAGE_BYTES,
  CARRIED_FAILURES_MAX,
  codeOfState,
  countStates,
  STATE_CODES,
  type PartitionSlice,
} from '../src/domain/partitioning';
import type { PlanNode } from '../src/domain/records';
import type { CarriedRunState, NodeStatus, PartitionedRunInput, RunStatus } from '../src/domain/run-state';
import { boundedText, fitStatus } from '../src/domain/payload-size';

/** The carried state of a run's first partition; `deadlineMs` is when its timeout, if any, passes. */
export function initialCarried(input: PartitionedRunInput, startedAt: Date, runId: string, deadlineMs: number | undefined): CarriedRunState {
  return {
    partition: 0,
    started_at: startedAt.toISOString(),
    first_run_id: runId,
    deadline_ms: deadlineMs,
    states: STATE_CODES.pending.repeat(input.partitioned.node_count),
    outputs: {},
    failures: [],
    blocking_failures: 0,
    blocking_ids: [],
    local_ops: [],
  };
}

const tolerates = (node: PlanNode | undefined) => node?.policy?.continue_on_error === true;

/** The state codes with the partition's nodes (live or final) written in. */
export function statesWith(carried: CarriedRunState, slice: PartitionSlice | undefined, status: ReadonlyMap<string, NodeStatus>): string {
  if (!slice) return carried.states;
  const codes = slice.nodes.map((node) => codeOfState(status.get(node.id)?.state ?? 'pending', tolerates(node)));
  return carried.states.slice(0, slice.first) + codes.join('') + carried.states.slice(slice.first + codes.length);
}

/**
 * Folds a finished partition into the carried state: its nodes' codes, its failures (details of
 * the first few) and the outputs later partitions still read. `ending` marks every node not yet
 * run as cancelled.
 */
export function foldPartition(carried: CarriedRunState, slice: PartitionSlice, status: ReadonlyMap<string, NodeStatus>, ending: boolean): CarriedRunState {
  let states = statesWith(carried, slice, status);
  if (ending) states = states.replaceAll(STATE_CODES.pending, STATE_CODES.cancelled);
  const failures = [...carried.failures];
  let blocking = carried.blocking_failures;
  const blockingIds = [...carried.blocking_ids];
  for (const node of slice.nodes) {
    const s = status.get(node.id);
    if (s?.state !== 'failed') continue;
    if (!tolerates(node)) {
      blocking += 1;
      if (blockingIds.length < CARRIED_FAILURES_MAX) blockingIds.push(node.id);
    }
    if (failures.length < CARRIED_FAILURES_MAX) {
      const error = s.error && { ...s.error, message: boundedText(s.error.message, CARRIED_ERROR_MESSAGE_BYTES) };
      failures.push({ ...s, output: undefined, error });
    }
  }
  const outputs: Record<string, unknown> = {};
  for (const id of slice.carry) {
    const output = status.get(id)?.output ?? carried.outputs[id];
    if (output !== undefined) outputs[id] = output;
  }
  return { ...carried, partition: carried.partition + 1, states, failures, blocking_failures: blocking, blocking_ids: blockingIds, outputs };
}

/** Ids of failed nodes that fail the run, as far as the carried details name them. */
export function blockingFailureIds(carried: CarriedRunState): string {
  const ids = carried.blocking_ids;
  const more = carried.blocking_failures - ids.length;
  return more > 0 ? `${ids.join(', ')} and ${more} more` : ids.join(', ');
}

/** The status of a partitioned run: the partition's node details, earlier failures, and every node's state code. */
export function partitionedStatus(
  input: PartitionedRunInput,
  carried: CarriedRunState,
  slice: PartitionSlice | undefined,
  partitionNodes: NodeStatus[],
  run: Pick<RunStatus, 'state' | 'finished_at' | 'error'>,
): RunStatus {
  const spec = input.partitioned;
  const states = statesWith(carried, slice, new Map(partitionNodes.map((n) => [n.id, n])));
  const shown = new Set(partitionNodes.map((n) => n.id));
  return fitStatus({
    plan_record_id: spec.plan_record_id,
    plan_revision: spec.plan_revision,
    plan_id: spec.plan_id,
    intent: spec.intent,
    state: run.state,
    started_at: carried.started_at,
    finished_at: run.finished_at,
    latency_ms: run.finished_at ? Date.parse(run.finished_at) - Date.parse(carried.started_at) : undefined,
    error: run.error,
    nodes: [...carried.failures.filter((f) => !shown.has(f.id)), ...partitionNodes],
    partitioned: {
      partition: Math.min(carried.partition, Math.ceil(spec.node_count / spec.partition_size) - 1),
      partitions: Math.ceil(spec.node_count / spec.partition_size),
      partition_size: spec.partition_size,
      node_count: spec.node_count,
      counts: countStates(states),
      node_states: states,
    },
  });
}
