/**
 * Messages and state shared by the executor workflow and the code that starts and watches it.
 * Safe to import from workflow code: no I/O, only `@temporalio/workflow`'s pure definers, and no
 * zod (the status's wire schemas are in run-schemas.ts: building zod schemas in every workflow's
 * sandbox costs more than the rest of a small run's workflow code).
 */
import { defineQuery, type Sinks } from '@temporalio/workflow';
import { SUB_PLAN_ERROR_TYPES } from './sub-plan';
import type { PlanGraphPayload, TrustContext } from './records';
import type { PlanSnapshot } from './plan-snapshot';
import type { RunBegun } from './run-begin';
import type * as RunSchemas from './run-schemas';

/** `waiting`: an approval node waiting for a person's decision (docs/execution.md#approvals). */
export const NODE_STATES = ['pending', 'running', 'waiting', 'succeeded', 'failed', 'skipped', 'cancelled'] as const;
export type NodeState = (typeof NODE_STATES)[number];
export const TERMINAL_NODE_STATES: ReadonlySet<NodeState> = new Set(['succeeded', 'failed', 'skipped', 'cancelled']);

export const RUN_STATES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Stable failure types (ApplicationFailure.type) raised by the executor and the ops. */
export const NODE_ERROR_TYPES = {
  invalidParams: 'invalid_params',
  unknownOp: 'unknown_op',
  outputTooLarge: 'output_too_large',
  /** A node's resolved params and data inputs are over the payload limit of an activity's input. */
  inputTooLarge: 'input_too_large',
  outputNotJson: 'output_not_json',
  invalidPlan: 'invalid_plan',
  invalidInputs: 'invalid_inputs',
  runFailed: 'plan_run_failed',
  runTimeout: 'run_timeout',
  /** A param reads an upstream node's output at a path that output does not have (UNRESOLVED_REF_VERSION). */
  unresolvedReference: 'unresolved_reference',
  /** A map node's for_each did not resolve to an array when the node started. */
  forEachNotArray: 'for_each_not_array',
  /** A map item failed under failure_policy fail_fast. */
  mapItemFailed: 'map_item_failed',
  /** Map items failed under failure_policy continue: the error lists their indexes. */
  mapItemsFailed: 'map_items_failed',
  ...SUB_PLAN_ERROR_TYPES,
  /** A partitioned run found its stored plan revised (it reads the plan by reference). */
  planRevised: 'plan_revised',
  /** A partitioned run's carried state outgrew Temporal's payload limit. */
  carriedStateTooLarge: 'carried_state_too_large',
} as const;

/** The executor workflow's single input. */
export interface PlanRunInput {
  plan: PlanSnapshot;
  inputs: Record<string, unknown>;
  trust?: TrustContext;
  task_descriptor?: string;
  /** A resumed run (docs/execution.md#resume): the run it resumes and the outputs it reuses. */
  resume?: ResumeFrom;
  /** Record ids of the plans whose runs called this one as a sub-plan, outermost first. */
  ancestors?: string[];
  /**
   * Set by a starter that checked the inputs and ops and opened the run row itself: the run then
   * skips its `beginRun` local activity (docs/execution.md#starting-a-run).
   */
  begun?: RunBegun;
  /**
   * The executor behaviour the starter asks for (EXECUTOR_VERSION when it started the run). A run
   * that carries it takes every path the executor's patches guard without asking `patched()`.
   */
  executor_version?: number;
}

/**
 * What a run started now carries as `executor_version`. Version 1: every path behind the
 * executor's patches up to `executor-combined-1`, the map and sub-plan patches included, taken
 * without a patch marker (each marker costs an event and a TemporalChangeVersion search-attribute
 * upsert in every run). Version 2: the outcome goes to the worker's `runOutcome` sink in the final
 * workflow task instead of a local activity (OUTCOME_SINK_VERSION). Version 3: a run whose nodes
 * are all activities, with no timeout and no gate, waits for its nodes with fewer promises, and a
 * chain's nodes run in the root scope (LEAN_WAIT_VERSION). Version 4: cancellation and map
 * fixes (CANCEL_SAFE_VERSION). Version 5: nodes wait rather than overfill a workflow task's
 * completion (TASK_BUDGET_VERSION). Version 6: local nodes side by side hold a guess of their output
 * (LOCAL_RESERVE_VERSION). Version 7: a task boundary's activity has an id of its own that no node can
 * have (BOUNDARY_ID_VERSION). Version 8: a node whose params read an upstream output that does not
resolve fails (UNRESOLVED_REF_VERSION). Runs without it ask the patches, as their histories recorded.
 * Workers must know a version before starters send it (docs/workflow-changes.md#versioned-input).
 */
export const EXECUTOR_VERSION = 8;

/** The first `executor_version` whose runs record their outcome through the `runOutcome` sink. */
export const OUTCOME_SINK_VERSION = 2;

/** The first `executor_version` whose plain runs wait with NodeScheduler.runToEnd() (workflows/node-scheduler.ts). */
export const LEAN_WAIT_VERSION = 3;

/**
 * The first `executor_version` that (1) finishes its own start-up (`beginRun`, sub-plan pins)
 * before it honours a cancellation, so a run cancelled at once still ends with every node final
 * and its outcome counted; (2) starts no node once it has seen the run's cancellation, even when
 * no node rejected (a map of local items runs to its end); (3) holds the activity items of all
 * its inline maps to one budget (workflows/item-slots.ts), inside Temporal's pending-activity
 * limit. Older runs ask the `executor-cancel-safe` patch.
 */
export const CANCEL_SAFE_VERSION = 4;

/**
 * The first `executor_version` whose nodes wait for the next workflow task rather than carry more
 * than about 1.5 MB of activity inputs and local outputs in one task's completion, which gRPC
 * refuses above 4 MB (workflows/task-budget.ts). Older runs ask the `executor-task-budget` patch.
 */
export const TASK_BUDGET_VERSION = 5;

/**
 * The first `executor_version` whose local nodes running side by side each hold a guess of their
 * output against that budget, so that outputs finishing together cannot overfill one completion
 * (workflows/task-budget.ts). Older runs do not; partitions ask the `executor-local-reserve` patch.
 */
export const LOCAL_RESERVE_VERSION = 6;

/**
 * The first `executor_version` whose task boundaries (workflows/task-budget.ts) are activities with
 * the id `$task-boundary-<n>`, which validation keeps from every node. Before it they took the
 * SDK's default id, the activity's sequence number, which a node named `17` could hold while
 * pending: Temporal refused the second, and the run stalled. Partitions ask `executor-boundary-id`.
 */
export const BOUNDARY_ID_VERSION = 7;

/**
 * The first `executor_version` whose nodes fail (`unresolved_reference`, not retried) when their
 * params read an upstream node's output at a path it does not have, instead of running with the
 * param left out or an empty string in its place. Partitions ask `executor-unresolved-ref`.
 */
export const UNRESOLVED_REF_VERSION = 8;

/** What a resumed run takes from the run it resumes: the succeeded nodes it does not run again. */
export interface ResumeFrom {
  workflow_id: string;
  run_id: string;
  /** Node id → the output (and attempts) it had in the old run. */
  reused: Record<string, { output: unknown; attempts: number }>;
  /**
   * The old run's `{{run.id}}` (its first execution's id, or for a resumed run the one it kept),
   * which the resumed run keeps: a call the old run may have made before it failed is sent again
   * under the same request id or idempotency key, not a new one. Absent in runs resumed before it.
   */
  run_ref_id?: string;
}

/**
 * The input of a partitioned run (docs/execution.md#plans-of-any-size): the plan by reference,
 * since a plan of 50,000 nodes does not fit a Temporal payload; each partition loads its slice.
 * `carried` is absent in the first run and set by every continue-as-new.
 */
export interface PartitionedRunInput {
  partitioned: {
    plan_record_id: string;
    plan_revision: number;
    plan_id: string;
    intent: string;
    node_count: number;
    partition_size: number;
    constraints: PlanGraphPayload['constraints'];
  };
  inputs: Record<string, unknown>;
  trust?: TrustContext;
  task_descriptor?: string;
  carried?: CarriedRunState;
}

/** What one partition hands the next through continue-as-new. */
export interface CarriedRunState {
  /** The partition this run executes. */
  partition: number;
  started_at: string;
  /** The first run's id: the plan_runs row and the metrics belong to it. */
  first_run_id: string;
  /** When `constraints.timeout` runs out (ms since the epoch), if it is set. */
  deadline_ms?: number;
  /** One state code per node, in the plan's topological order (src/domain/partitioning.ts). */
  states: string;
  /** Outputs later partitions still read, by node id. */
  outputs: Record<string, unknown>;
  /** Details of the first failed nodes (capped), for the result. */
  failures: NodeStatus[];
  /** Failed nodes without continue_on_error, in all, and the ids of the first of them. */
  blocking_failures: number;
  blocking_ids: string[];
  local_ops: string[];
}

export const isPartitionedRun = (input: PlanRunInput | PartitionedRunInput): input is PartitionedRunInput => 'partitioned' in input;

/** What one node's activity receives: its resolved params and its data predecessors' outputs. */
export interface NodeActivityInput {
  node_id: string;
  params: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** What an op activity returns: the node output and the attempt that produced it. */
export interface NodeActivityResult {
  output: unknown;
  attempt: number;
}

export type NodeError = RunSchemas.NodeError;
export type NodeStatus = RunSchemas.NodeStatus;
export type RunStatus = RunSchemas.RunStatus;

export const statusQuery = defineQuery<RunStatus>('status');

/**
 * Search attributes every run carries: the API finds a run's plan (and so who may see it) by
 * PlanId. Plain `{name, type}` keys, as `defineSearchAttributeKey` builds them, so workflow code
 * can set them on child runs.
 */
export const PLAN_ID_ATTRIBUTE = { name: 'PlanId', type: 'KEYWORD' } as const;
export const PLAN_INTENT_ATTRIBUTE = { name: 'PlanIntent', type: 'KEYWORD' } as const;

/** What closes a run's row and counts it in the plan's metrics, exactly once (store/plan-runs.ts). */
export interface RunOutcome {
  plan_record_id: string;
  plan_revision: number;
  workflow_id: string;
  run_id: string;
  status: Exclude<RunState, 'running'>;
  started_at: string;
  finished_at: string;
  latency_ms: number;
  error?: NodeError;
}

/**
 * The worker's sink for run outcomes (src/runs/outcome-sink.ts). The worker calls it after the
 * final activation and before it reports the workflow task, so the row is closed by the time the
 * run's result is visible; it is never called while replaying.
 */
export interface RunOutcomeSinks extends Sinks {
  runOutcome: { record(outcome: RunOutcome): void };
}
