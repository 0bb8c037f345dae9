/**
 * Starting a plan run: the one place that turns a stored plan into an executor workflow, with
 * its search attributes, memo and checks made before anything starts.
 */
import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandleWithStartDetails, WorkflowStartOptions } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { assertRunInputs, withInputDefaults } from './run-inputs';
import { DEFAULT_NODE_OUTPUT_LIMIT_BYTES, DEFAULT_RUN_INPUT_LIMIT_BYTES } from '../config';
import { validatePlanGraph } from '../domain/graph';
import { inputsSchemaIssues } from '../domain/inputs-schema';
import { aRecordType, type MemoryRecord, type PlanGraphPayload, type TrustContext } from '../domain/records';
import { planSnapshot } from '../domain/plan-snapshot';
import { EXECUTOR_VERSION, type PartitionedRunInput, type PlanRunInput, type ResumeFrom } from '../domain/run-state';
import type { planExecutorWorkflow } from '../../workflows/plan-executor';
import { DomainError, type ErrorCode } from '../domain/errors';
import { subPlanTargets, walkSubPlans, SUB_PLAN_ERROR_TYPES } from '../domain/sub-plan';
import type { RecordStore } from '../store/records';
import type { RunStore } from '../store/plan-runs';
import type { OpRegistry } from '../ops/registry';
import { workerOps, type RunBegun } from '../domain/run-begin';
import { analysePlan, carriedStateBound, CARRIED_STATE_LIMIT_BYTES, DEFAULT_PARTITION_NODES, needsOneHistory } from '../domain/partitioning';

import { PLAN_ID_ATTRIBUTE, PLAN_INTENT_ATTRIBUTE } from '../domain/run-state';

export { PLAN_ID_ATTRIBUTE, PLAN_INTENT_ATTRIBUTE };

export interface StartRunOptions {
  client: Client;
  taskQueue: string;
  record: MemoryRecord;
  inputs?: Record<string, unknown>;
  trust?: TrustContext;
  taskDescriptor?: string;
  /** A fixed workflow id (e.g. derived from an idempotency key); a fresh one otherwise. */
  workflowId?: string;
  /** Ops the workers provide, to refuse a plan with an unknown op before it starts. */
  knownOps?: ReadonlySet<string>;
  /** Id reuse/conflict policies: an idempotent submission must never start a second run. */
  idPolicy?: Pick<WorkflowStartOptions, 'workflowIdReusePolicy' | 'workflowIdConflictPolicy'>;
  /** Extra memo fields (e.g. the selection that picked the plan). */
  memo?: Record<string, unknown>;
  /** RUN_INPUT_LIMIT_BYTES; its default when not given. */
  inputLimitBytes?: number;
  /** A resumed run: the run it resumes and the outputs it reuses (src/runs/resume-run.ts). */
  resume?: ResumeFrom;
  /**
   * Stored plans, to refuse before starting a run whose sub-plans form a cycle or are hidden
   * from or not runnable by the caller (the run checks again when it starts, and pins them).
   */
  records?: Pick<RecordStore, 'get'>;
  /** Plans with more nodes run partitioned, in partitions of this many nodes (PLAN_PARTITION_NODES). */
  partitionNodes?: number;
  /** NODE_OUTPUT_LIMIT_BYTES: bounds each output a partitioned run may carry. */
  outputLimitBytes?: number;
  /**
   * Opens the run row here and tells the run which of its ops are local, so the run's first
   * workflow task needs no `beginRun` local activity (whole runs only: partitioned runs and
   * resumed runs still begin in the workflow). Its registry also refuses unknown ops.
   */
  opener?: RunOpener;
}

/** What a starter needs to open runs itself: the run rows and the workers' op registry. */
export interface RunOpener {
  runs: Pick<RunStore, 'openRun'>;
  registry: OpRegistry;
}

/** How a refused sub-plan is reported to the caller who tried to start the run. */
const SUB_PLAN_REFUSALS: Record<string, ErrorCode> = {
  [SUB_PLAN_ERROR_TYPES.cycle]: 'invalid_plan',
  [SUB_PLAN_ERROR_TYPES.notFound]: 'not_found',
  [SUB_PLAN_ERROR_TYPES.forbidden]: 'forbidden',
};

/** Plans above this size get a longer workflow-task timeout. */
const LARGE_PLAN_NODES = 1000;

/** Workflow id of a run: readable in the UI, unique per run. */
export function runWorkflowId(plan: PlanGraphPayload): string {
  const slug = plan.plan_id.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 60);
  return `plan-${slug}-${randomUUID()}`;
}

/**
 * The reference a partitioned run starts from; refuses, before anything starts, a plan whose
 * outputs carried between partitions could outgrow Temporal's payload limit.
 */
function partitionedSpec(record: MemoryRecord, payload: PlanGraphPayload, size: number, outputLimitBytes: number, inputs: Record<string, unknown>): PartitionedRunInput['partitioned'] {
  const bound = carriedStateBound(analysePlan(payload, size), outputLimitBytes, Buffer.byteLength(JSON.stringify(inputs)));
  if (bound.bytes > CARRIED_STATE_LIMIT_BYTES) {
    throw new DomainError(
      'invalid_plan',
      `plan ${record.id} is too large to carry between partitions: up to ${bound.outputs} node outputs of up to ${outputLimitBytes} bytes each ` +
        `(NODE_OUTPUT_LIMIT_BYTES) are read across one partition boundary, with the run inputs up to ${bound.bytes} bytes; the limit is ${CARRIED_STATE_LIMIT_BYTES}`,
      { field: 'plan', carried_outputs: bound.outputs, carried_bytes_bound: bound.bytes, limit_bytes: CARRIED_STATE_LIMIT_BYTES, partition_nodes: size },
    );
  }
  return {
    plan_record_id: record.id,
    plan_revision: record.revision,
    plan_id: payload.plan_id,
    intent: payload.intent,
    node_count: payload.nodes.length,
    partition_size: size,
    constraints: payload.constraints,
  };
}

/** Validates a stored plan and its inputs, then starts the executor workflow. */
export async function startPlanRun(options: StartRunOptions): Promise<WorkflowHandleWithStartDetails<typeof planExecutorWorkflow>> {
  const { record } = options;
  if (record.payload.kind !== 'plan_graph') {
    throw new DomainError('not_a_plan', `record ${record.id} is ${aRecordType(record.type)}, not a plan graph`);
  }
  if (record.status === 'retracted') throw new DomainError('plan_retracted', `plan ${record.id} is retracted`);
  const payload = record.payload;
  const { opener } = options;
  // Plans stored before writes checked inputs_schema may hold one that does not compile.
  const issues = validatePlanGraph(payload, { knownOps: options.knownOps ?? (opener && new Set(opener.registry.keys())), inputsSchemaIssues, startChecks: true });
  if (issues.length > 0) {
    throw new DomainError('invalid_plan', `plan ${record.id} is not runnable: ${issues.map((i) => i.message).join("; ")}`, { issues });
  }
  const inputs = withInputDefaults(payload.inputs_schema, options.inputs ?? {});
  assertRunInputs(payload.inputs_schema, inputs, options.inputLimitBytes ?? DEFAULT_RUN_INPUT_LIMIT_BYTES);
  if (options.records && subPlanTargets(payload).size > 0) {
    const records = options.records;
    const walk = await walkSubPlans({ record_id: record.id, payload }, (id) => records.get(id), { trust: options.trust });
    if (!walk.ok) throw new DomainError(SUB_PLAN_REFUSALS[walk.type] ?? 'invalid_plan', walk.message, { type: walk.type });
  }

  const partitionNodes = options.partitionNodes ?? DEFAULT_PARTITION_NODES;
  const common = { inputs, trust: options.trust, task_descriptor: options.taskDescriptor };
  const partitioned = payload.nodes.length > partitionNodes && !options.resume && !needsOneHistory(payload);
  // Inputs and ops are checked above, so the run may skip beginRun once the row is open (below).
  const begun: RunBegun | undefined = opener && !partitioned && !options.resume ? { local_ops: workerOps(payload).filter((op) => opener.registry.get(op)?.local === true) } : undefined;
  const input: PlanRunInput | PartitionedRunInput = partitioned
    ? { ...common, partitioned: partitionedSpec(record, payload, partitionNodes, options.outputLimitBytes ?? DEFAULT_NODE_OUTPUT_LIMIT_BYTES, inputs) }
    : {
        ...common,
        plan: planSnapshot(record, payload),
        executor_version: EXECUTOR_VERSION,
        ...(options.resume ? { resume: options.resume } : {}),
        ...(begun ? { begun } : {}),
      };
  const handle = await startExecutor(options, payload, input);
  if (begun) {
    // After the start (the run id is the row's key); the workflow's outcome, should it come first,
    // creates the row closed and this insert then does nothing. started_at is corrected by the outcome.
    await opener!.runs.openRun({
      plan_record_id: record.id,
      plan_revision: record.revision,
      workflow_id: handle.workflowId,
      run_id: handle.firstExecutionRunId,
      started_at: new Date().toISOString(),
    });
  }
  return handle;
}

function startExecutor(options: StartRunOptions, payload: PlanGraphPayload, input: PlanRunInput | PartitionedRunInput) {
  const { record } = options;
  return options.client.workflow.start('planExecutorWorkflow', {
    taskQueue: options.taskQueue,
    workflowId: options.workflowId ?? runWorkflowId(payload),
    args: [input],
    typedSearchAttributes: [
      { key: PLAN_ID_ATTRIBUTE, value: record.id },
      { key: PLAN_INTENT_ATTRIBUTE, value: payload.intent },
    ],
    ...options.idPolicy,
    // Over a worker's native connection (a worker in this process), the server hands the first
    // workflow task back with the start, skipping the task queue; with no free slot on a worker of
    // this queue the start is an ordinary one.
    requestEagerStart: options.client.connection instanceof NativeConnection,
    memo: { ...options.memo, task_descriptor: options.taskDescriptor ?? '', plan_id: payload.plan_id, plan_revision: record.revision },
    staticSummary: `${payload.intent} (${payload.nodes.length} nodes)`,
    // Replaying a plan of thousands of nodes after a cache eviction takes longer than Temporal's
    // default 10 s workflow-task timeout (measured: 21.6 s for 5,000 nodes on 2 cores).
    workflowTaskTimeout: payload.nodes.length > LARGE_PLAN_NODES ? '120s' : undefined,
  }) as Promise<WorkflowHandleWithStartDetails<typeof planExecutorWorkflow>>;
}
