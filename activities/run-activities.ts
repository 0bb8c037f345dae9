/**
 * Activities that bracket a plan run: checks before it starts, and the exactly-once outcome.
 */
import { ApplicationFailure } from '@temporalio/common';
import { NODE_ERROR_TYPES, type RunOutcome } from '../src/domain/run-state';
import { inputProblems } from '../src/runs/run-inputs';
import type { RunStart, RunStore } from '../src/store/plan-runs';
import type { OpRegistry } from '../src/ops/registry';

export interface BeginRunInput extends RunStart {
  inputs_schema: Record<string, unknown>;
  inputs: Record<string, unknown>;
  /** Ops this worker's task queue must provide. */
  ops: string[];
}

/** Creates the run-bracketing activities over their dependencies. */
export function createRunActivities(deps: { runs: Pick<RunStore, 'openRun' | 'closeRun'>; registry: OpRegistry }) {
  return {
    /** Refuses bad inputs or unknown ops before any node runs, then opens the run row. */
    async beginRun(input: BeginRunInput): Promise<void> {
      const problems = inputProblems(input.inputs_schema, input.inputs);
      if (problems.length > 0) {
        throw ApplicationFailure.create({
          type: NODE_ERROR_TYPES.invalidInputs,
          message: `run inputs do not match inputs_schema: ${problems.join('; ')}`,
          nonRetryable: true,
          details: [problems],
        });
      }
      const unknown = input.ops.filter((op) => !deps.registry.has(op));
      if (unknown.length > 0) {
        throw ApplicationFailure.create({
          type: NODE_ERROR_TYPES.unknownOp,
          message: `no worker provides op(s): ${unknown.join(', ')}`,
          nonRetryable: true,
        });
      }
      await deps.runs.openRun(input);
    },

    /** Closes the run and counts it in the plan's metrics, exactly once however often retried. */
    async recordRunOutcome(outcome: RunOutcome): Promise<{ counted: boolean }> {
      return { counted: await deps.runs.closeRun(outcome) };
    },
  };
}
