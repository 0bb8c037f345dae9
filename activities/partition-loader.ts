/**
 * The activity a partitioned run calls at the start of each partition: the plan is read by
 * reference (record id and revision) and only the partition's slice travels through Temporal.
 */
import { ApplicationFailure } from '@temporalio/common';
import { analysePlan, partitionSlice, type PartitionSlice, type PlanPartitioning } from '../src/domain/partitioning';
import type { PlanGraphPayload } from '../src/domain/records';
import { NODE_ERROR_TYPES } from '../src/domain/run-state';
import type { RecordStore } from '../src/store/records';

export interface LoadPartitionInput {
  plan_record_id: string;
  plan_revision: number;
  /** The plan's node count at start: a stored payload never changes, so a different count means a hand-edited row. */
  node_count?: number;
  partition_size: number;
  partition: number;
  /** Every node's carried state code, in topological order. */
  states: string;
}

export interface LoadedPartition extends PartitionSlice {
  /** For the first partition only: what beginRun checks (the inputs schema and the ops of nodes on this task queue). */
  begin?: { inputs_schema: Record<string, unknown>; ops: string[] };
}

/** Creates the loader; it keeps the last plan analysed, since consecutive partitions read the same plan. */
export function createPartitionLoader(records: Pick<RecordStore, 'get'>) {
  let cached: { key: string; payload: PlanGraphPayload; plan: PlanPartitioning } | undefined;

  async function analysed(input: LoadPartitionInput) {
    const key = `${input.plan_record_id}/${input.partition_size}`;
    if (cached?.key === key) return cached;
    const record = await records.get(input.plan_record_id);
    if (!record || record.payload.kind !== 'plan_graph') {
      throw ApplicationFailure.create({ type: NODE_ERROR_TYPES.invalidPlan, message: `plan ${input.plan_record_id} no longer exists`, nonRetryable: true });
    }
    // A revision bump (contest, retract, supersede) changes the record's envelope, never its
    // payload: the run goes on, as a run of a small plan does with its snapshot.
    if (input.node_count !== undefined && record.payload.nodes.length !== input.node_count) {
      throw ApplicationFailure.create({
        type: NODE_ERROR_TYPES.planRevised,
        message: `plan ${input.plan_record_id} no longer has the ${input.node_count} nodes it had when this partitioned run started (it reads its plan by reference)`,
        nonRetryable: true,
      });
    }
    cached = { key, payload: record.payload, plan: analysePlan(record.payload, input.partition_size) };
    return cached;
  }

  return async function loadPlanPartition(input: LoadPartitionInput): Promise<LoadedPartition> {
    const { payload, plan } = await analysed(input);
    const slice = partitionSlice(plan, input.partition, input.states);
    if (input.partition !== 0) return slice;
    const ops = [...new Set(payload.nodes.filter((n) => !n.policy?.task_queue).map((n) => n.op))].sort();
    return { ...slice, begin: { inputs_schema: payload.inputs_schema, ops } };
  };
}
