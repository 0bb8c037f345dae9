/**
 * Activities that bracket a plan run: checks before it starts, and the exactly-once outcome.
 */
import { ApplicationFailure } from '@temporalio/common';
import { BUILTIN_EXECUTOR_OPS } from '../src/domain/approvals';
import { inputsSchemaIssues } from '../src/domain/inputs-schema';
import { NODE_ERROR_TYPES, type RunOutcome } from '../src/domain/run-state';
import { inputProblems } from '../src/runs/run-inputs';
import type { RunStart, RunStore } from '../src/store/plan-runs';
import type { OpRegistry } from '../src/ops/registry';
import type { RecordStore } from '../src/store/records';
import { createPartitionLoader } from './partition-loader';

export interface BeginRunInput extends RunStart {
  inputs_schema: Record<string, unknown>;
  inputs: Record<string, unknown>;
  /** Ops this worker's task queue must provide. */
  ops: string[];
}

/** What the worker tells the run before it starts: which of its ops are cheap enough to run locally. */
export interface BeginRunResult {
  local_ops: string[];
}

/** Creates the run-bracketing activities over their dependencies. */
export function createRunActivities(deps: { runs: Pick<RunStore, 'openRun' | 'closeRun'>; registry: OpRegistry; records: Pick<RecordStore, 'get'> }) {
  return {
    loadPlanPartition: createPartitionLoader(deps.records),

    /**
     * Refuses bad inputs or unknown ops before any node runs, opens the run row, and answers which
     * of the run's ops declare themselves local (recorded in the history, so replay never asks the
     * registry again).
     */
    async beginRun(input: BeginRunInput): Promise<BeginRunResult> {
      // A stored plan whose inputs_schema does not compile (a sub-plan's, or one stored before
      // writes checked it) fails the run cleanly, not with Ajv's error retried.
      const schemaIssues = inputsSchemaIssues(input.inputs_schema);
      if (schemaIssues.length > 0) {
        throw ApplicationFailure.create({
          type: NODE_ERROR_TYPES.invalidPlan,
          message: schemaIssues.map((i) => `${i.code} at ${i.path}: ${i.message}`).join('\n'),
          nonRetryable: true,
          details: [schemaIssues],
        });
      }
      const problems = inputProblems(input.inputs_schema, input.inputs);
      if (problems.length > 0) {
        throw ApplicationFailure.create({
          type: NODE_ERROR_TYPES.invalidInputs,
          message: `run inputs do not match inputs_schema: ${problems.join('; ')}`,
          nonRetryable: true,
          details: [problems],
        });
      }
      // Approval nodes are waited on by the executor itself: no worker provides them.
      const workerOps = input.ops.filter((op) => !BUILTIN_EXECUTOR_OPS.has(op));
      const unknown = workerOps.filter((op) => !deps.registry.has(op));
      if (unknown.length > 0) {
        throw ApplicationFailure.create({
          type: NODE_ERROR_TYPES.unknownOp,
          message: `no worker provides op(s): ${unknown.join(', ')}`,
          nonRetryable: true,
        });
      }
      await deps.runs.openRun(input);
      return { local_ops: workerOps.filter((op) => deps.registry.get(op)?.local === true) };
    },

    /** Closes the run and counts it in the plan's metrics, exactly once however often retried. */
    async recordRunOutcome(outcome: RunOutcome): Promise<{ counted: boolean }> {
      return { counted: await deps.runs.closeRun(outcome) };
    },

    /**
     * Does nothing: scheduling it makes the worker report the executor's workflow task before the
     * task's completion outgrows gRPC's message limit, and its result starts the next task within
     * milliseconds (a timer would take up to a second to fire). See workflows/task-budget.ts.
     */
    async endWorkflowTask(): Promise<void> {},
  };
}
