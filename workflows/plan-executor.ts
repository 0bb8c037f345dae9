/**
 * The plan executor: runs a plan graph as a Temporal workflow. Each node is an activity whose
 * type is its op and whose activity id is its node id. A node starts the moment all its
 * predecessors are terminal (not level by level), up to `max_parallelism` at once.
 */
import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  proxySinks,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { createRunActivities } from '../activities/run-activities';
import { runsLocally } from '../src/domain/node-execution';
import type { PlanNode } from '../src/domain/records';
import type { RunnablePlan } from '../src/domain/plan-snapshot';
import { resolveTemplates } from '../src/domain/refs';
import { isSubPlanNode } from '../src/domain/sub-plan';
import { fitStatus } from '../src/domain/payload-size';
import {
  BOUNDARY_ID_VERSION,
  CANCEL_SAFE_VERSION,
  LEAN_WAIT_VERSION,
  NODE_ERROR_TYPES,
  OUTCOME_SINK_VERSION,
  TASK_BUDGET_VERSION,
  LOCAL_RESERVE_VERSION,
  UNRESOLVED_REF_VERSION,
  statusQuery,
  isPartitionedRun,
  type NodeError,
  type PartitionedRunInput,
  type PlanRunInput,
  type RunOutcome,
  type RunOutcomeSinks,
  type RunState,
  type RunStatus,
} from '../src/domain/run-state';
import { APPROVAL_OP, gatePrompt, RUN_GATE_ID, runGate } from '../src/domain/approvals';
import { workerOps } from '../src/domain/run-begin';
import { ApprovalDesk } from './approvals';
import { compositeRunner, hasComposites, NO_COMPOSITES, prepareComposites } from './composite-nodes';
import type { CompositeResult } from './map-node';
import { ItemSlots, MAP_ITEMS_IN_FLIGHT } from './item-slots';
import { describeFailure } from './node-failure';
import { activityWork, NodeScheduler, SHARED_SCOPE_PATCH } from './node-scheduler';
import { partitionedRun } from './partitioned-run';
import { PlanRun } from './plan-run';
import { TASK_BUDGET_PATCH, TaskBudget } from './task-budget';

type RunActivities = ReturnType<typeof createRunActivities>;

const { beginRun } = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: [NODE_ERROR_TYPES.invalidInputs, NODE_ERROR_TYPES.unknownOp] },
});
// The outcome must reach Postgres eventually, however long it is down: retry without a cap.
const OUTCOME_RETRY = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' } as const;
const { recordRunOutcome } = proxyActivities<RunActivities>({ startToCloseTimeout: '30s', retry: OUTCOME_RETRY });
// The same, run by this worker inside the final workflow task: no round trip through the server.
// Backoffs past a few seconds wait on a server timer instead of holding the workflow task open.
const { recordRunOutcome: recordRunOutcomeLocally } = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '5s',
  retry: OUTCOME_RETRY,
});
// Version 2 runs: the worker writes the outcome itself after the final activation (src/runs/outcome-sink.ts).
const { runOutcome } = proxySinks<RunOutcomeSinks>();

/** Temporal allows 2,000 pending activities per workflow; stay well inside it. */
const MAX_PARALLELISM_CAP = 1000;

const now = () => new Date().toISOString();

/**
 * Changes to the executor's commands, each guarded by `patched()` so runs started before it
 * replay unchanged (docs/workflow-changes.md).
 */
const PATCHES = {
  /**
   * Asked first by every run: implies every patch below and SHARED_SCOPE_PATCH, so a new run
   * records one patch marker (and one TemporalChangeVersion upsert, which the SDK adds to each)
   * instead of up to five. Runs started before it ask the individual patches, as they recorded.
   */
  combined: 'executor-combined-1',
  /**
   * Nodes of local ops, or with `policy.execution: "local"`, run as local activities, and the run's
   * outcome is recorded by a local activity in the final workflow task. One marker for both.
   */
  localExecution: 'executor-local-execution',
  /** Approval nodes wait in the executor for the `approval` Update (docs/execution.md#approvals). */
  approvals: 'executor-approvals',
  /** `constraints.requires_approval` gates the run before its first node. */
  runGate: 'executor-run-gate',
  /** A resumed run reuses the succeeded nodes' outputs of the run it resumes (docs/execution.md#resume). */
  resume: 'executor-resume',
  /** CANCEL_SAFE_VERSION's fixes, for runs started with an older executor_version or none. */
  cancelSafe: 'executor-cancel-safe',
  /** TASK_BUDGET_VERSION's workflow-task budget, likewise (also asked by partitions: TASK_BUDGET_PATCH). */
  taskBudget: TASK_BUDGET_PATCH,
  // SHARED_SCOPE_PATCH (node-scheduler.ts): all nodes in one cancellation scope.
} as const;

/** Whether a run of the plan can wait for a person: approval nodes or the run gate. */
const waitsForApproval = (payload: RunnablePlan) => runGate(payload) !== undefined || payload.nodes.some((n) => n.op === APPROVAL_OP);

/** Runs a plan graph snapshot; returns every node's state and output. Large plans run partitioned. */
export async function planExecutorWorkflow(input: PlanRunInput | PartitionedRunInput): Promise<RunStatus> {
  if (isPartitionedRun(input)) return partitionedRun(input);
  const info = workflowInfo();
  // When the run was started, not when a worker first completed a task of it (runStartTime): a run
  // that waited for a worker, or whose first workflow tasks failed, took that long too.
  const startedAt = info.startTime.toISOString();
  const payload = input.plan.payload;
  // A resumed run keeps the id of the run it resumes: its calls are that request's, sent again.
  const run = new PlanRun(payload, input.inputs ?? {}, { id: input.resume?.run_ref_id ?? info.firstExecutionRunId, workflow_id: info.workflowId });
  let runState: RunState = 'running';
  let runError: NodeError | undefined;
  let finishedAt: string | undefined;

  const status = (): RunStatus => fitStatus({
    plan_record_id: input.plan.record_id,
    plan_revision: input.plan.revision,
    plan_id: payload.plan_id,
    intent: payload.intent,
    state: runState,
    started_at: startedAt,
    finished_at: finishedAt,
    latency_ms: finishedAt ? Date.parse(finishedAt) - Date.parse(startedAt) : undefined,
    error: runError,
    nodes: run.snapshot(),
    waiting_for: desk.waits(),
    approvals: desk.decisions(),
    resumed_from: input.resume?.workflow_id,
  });
  const desk = new ApprovalDesk({ node: (id) => run.nodes.get(id), state: (id) => run.status.get(id)?.state, now });
  setHandler(statusQuery, status);
  desk.install();

  // zod's schemas are loaded only by runs that use them: building them in every workflow's sandbox
  // cost more CPU than the rest of a small run's workflow code (docs/execution.md#cost-per-node).
  // An eager import: bundled with the workflows, evaluated on first use; no command depends on when.
  const approvalSchemas = waitsForApproval(payload) ? await import(/* webpackMode: "eager" */ '../src/domain/approval-schemas') : undefined;
  if (approvalSchemas) desk.useSchemas(approvalSchemas);
  // A starter that opened the run (`begun`) validated the plan just before; other starters may not have.
  const checked = input.begun ? undefined : (await import(/* webpackMode: "eager" */ '../src/domain/graph')).parsePlanGraph(payload, { once: true });
  if (checked && !checked.ok) {
    const lines = checked.issues.map((i) => `${i.code} at ${i.path}: ${i.message}`);
    throw ApplicationFailure.create({ type: NODE_ERROR_TYPES.invalidPlan, message: lines.join('\n'), nonRetryable: true, details: [checked.issues] });
  }
  // Runs started on this code take every patched path (see PATCHES), without a marker when the
  // starter passed the executor version; older runs ask each patch, as they recorded.
  const versioned = (input.executor_version ?? 0) >= 1;
  const current = versioned || patched(PATCHES.combined);
  const has = (patch: string) => current || patched(patch);
  const localExecution = has(PATCHES.localExecution);
  const sharedScope = has(SHARED_SCOPE_PATCH);
  const cancelSafe = (input.executor_version ?? 0) >= CANCEL_SAFE_VERSION || patched(PATCHES.cancelSafe);
  const localReserve = (input.executor_version ?? 0) >= LOCAL_RESERVE_VERSION;
  const namedBoundaries = (input.executor_version ?? 0) >= BOUNDARY_ID_VERSION;
  const strictRefs = (input.executor_version ?? 0) >= UNRESOLVED_REF_VERSION;
  const taskBudget = (input.executor_version ?? 0) >= TASK_BUDGET_VERSION || patched(PATCHES.taskBudget) ? new TaskBudget(localReserve, namedBoundaries) : undefined;
  // Start-up finishes before a cancellation is honoured: the nodes then end cancelled and the outcome is counted.
  const startUp = <T>(work: () => Promise<T>) => (cancelSafe ? CancellationScope.nonCancellable(work) : work());
  // Map and sub-plan nodes (composite-nodes.ts): sub-plans are pinned, or the run refused, here.
  const composites = hasComposites(payload) ? await startUp(() => prepareComposites(input, payload, versioned)) : NO_COMPOSITES;
  // A starter that opened the run row and checked inputs and ops passes the answer (`begun`, which
  // runs started before it never carry): the first workflow task then runs no local activity.
  const begun =
    input.begun ??
    (await startUp(() => beginRun({
      plan_record_id: input.plan.record_id,
      plan_revision: input.plan.revision,
      workflow_id: info.workflowId,
      run_id: info.runId,
      started_at: startedAt,
      inputs_schema: payload.inputs_schema,
      inputs: input.inputs ?? {},
      ops: workerOps(payload),
      ...(input.resume ? { resumed_from: input.resume.workflow_id } : {}),
    })));
  // Only a resumed run asks: runs without `resume` never record this marker.
  const resume = input.resume && has(PATCHES.resume) ? input.resume : undefined;
  const localOps = new Set(begun?.local_ops ?? []);
  const runLocally = (node: PlanNode) => localExecution && runsLocally(node, localOps);

  const failFast = (payload.constraints.failure_policy ?? 'fail_fast') === 'fail_fast';
  const maxParallel = Math.min(payload.constraints.max_parallelism ?? MAX_PARALLELISM_CAP, MAX_PARALLELISM_CAP);
  const itemSlots = cancelSafe && composites.maps ? new ItemSlots(MAP_ITEMS_IN_FLIGHT) : undefined;

  /** An approval node: waits in the executor for a decision; no activity runs. */
  const startApproval = (node: PlanNode) => {
    const params = resolveTemplates(node.params, run.scopeFor(node.id), run.index.nodeIds) as Record<string, unknown>;
    const { prompt, timeoutMs } = approvalSchemas!.approvalParams({ params });
    run.markWaiting(node.id, now(), prompt);
    return () => desk.wait(node.id, prompt, timeoutMs).then((r): CompositeResult => ({ output: r.output, attempts: r.attempt }));
  };

  /** A map or sub-plan node (composite-nodes.ts), or one activity or local activity of the node's op. */
  const startWork = (node: PlanNode) => {
    const local = runLocally(node);
    const composite = compositeRunner(node, composites, () => ({
      input,
      scope: run.scopeFor(node.id),
      nodeIds: run.index.nodeIds,
      local,
      maxParallel,
      failFast,
      update: (fields) => Object.assign(run.status.get(node.id)!, fields),
      itemSlots,
      taskBudget: localReserve ? taskBudget : undefined,
      strictRefs,
    }));
    run.markRunning(node.id, now(), composite && isSubPlanNode(node) ? undefined : local ? 'local' : 'activity');
    return composite ?? (() => activityWork(run, node, local, !current, taskBudget, strictRefs)());
  };

  const scheduler = new NodeScheduler({
    run,
    failFast,
    maxParallel,
    sharedScope,
    stopOnCancel: cancelSafe,
    start: (node) => (node.op === APPROVAL_OP && has(PATCHES.approvals) ? startApproval(node) : startWork(node)),
    // A resumed run settles the nodes it reuses; own properties only: a node may be called "constructor".
    settle: (node) => {
      const reused = resume && Object.prototype.hasOwnProperty.call(resume.reused, node.id) ? resume.reused[node.id] : undefined;
      if (reused) run.reuse(node.id, now(), reused.output, reused.attempts, resume!.workflow_id);
      return reused !== undefined;
    },
  });

  const timeout = payload.constraints.timeout;
  // `requires_approval`: nothing starts until the gate is approved; a rejection or timeout fails the run.
  const gate = runGate(payload);
  const awaitGate =
    gate && has(PATCHES.runGate)
      ? async () => {
          const refused = await desk.wait(RUN_GATE_ID, gatePrompt(gate.prompt, input.inputs ?? {}), gate.timeoutMs).then(
            () => undefined,
            (err: unknown) => {
              if (isCancellation(err)) throw err;
              return describeFailure(err).error;
            },
          );
          if (refused) scheduler.abort(refused);
        }
      : undefined;
  // Nodes that are all activities (no approval, map or sub-plan node), no timeout, no gate: the lean wait (LEAN_WAIT_VERSION).
  const lean = (input.executor_version ?? 0) >= LEAN_WAIT_VERSION && timeout === undefined && !approvalSchemas && composites === NO_COMPOSITES;
  const cancelled = lean ? await scheduler.runToEnd(run.sequential || maxParallel === 1) : await scheduler.complete(timeout, String(timeout), awaitGate);
  const aborting = scheduler.aborting;

  finishedAt = now();
  run.cancelPending(finishedAt, cancelled !== undefined ? 'run cancelled' : `run aborted: ${aborting?.message ?? ''}`);
  const failedNodes = [...run.status.values()].filter(
    (s) => s.state === 'failed' && !run.nodes.get(s.id)?.policy?.continue_on_error,
  );
  if (cancelled !== undefined) {
    runState = 'cancelled';
    runError = { type: 'cancelled', message: 'run cancelled' };
  } else if (aborting) {
    runState = 'failed';
    runError = aborting;
  } else if (failedNodes.length > 0) {
    runState = 'failed';
    runError = { type: NODE_ERROR_TYPES.runFailed, message: `nodes failed: ${failedNodes.map((s) => s.id).join(', ')}` };
  } else runState = 'succeeded';

  const result = status();
  // A finalizer that even a cancelled run executes: metrics are counted exactly once.
  const outcome: RunOutcome = {
    plan_record_id: input.plan.record_id,
    plan_revision: input.plan.revision,
    workflow_id: info.workflowId,
    run_id: info.runId,
    status: runState as Exclude<RunState, 'running'>,
    started_at: startedAt,
    finished_at: finishedAt,
    latency_ms: result.latency_ms ?? 0,
    error: runError,
  };
  if ((input.executor_version ?? 0) >= OUTCOME_SINK_VERSION) runOutcome.record(outcome);
  else {
    const record = localExecution ? recordRunOutcomeLocally : recordRunOutcome;
    await CancellationScope.nonCancellable(() => record(outcome));
  }

  // Rethrowing the cancellation makes Temporal record the run as cancelled.
  if (cancelled) throw cancelled;
  if (runState === 'failed') {
    throw ApplicationFailure.create({ type: runError?.type ?? NODE_ERROR_TYPES.runFailed, message: runError?.message ?? 'run failed', nonRetryable: true, details: [result] });
  }
  return result;
}
