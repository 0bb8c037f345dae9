/**
 * Activities that bracket a plan run: checks before it starts, and the exactly-once outcome.
 */
import { ApplicationFailure } from '@temporalio/common';
import { Ajv, type ValidateFunction } from 'ajv';
import { NODE_ERROR_TYPES, type RunOutcome } from '../src/domain/run-state';
import type { RunStart, RunStore } from '../src/store/plan-runs';
import type { OpRegistry } from './op-registry';

export interface BeginRunInput extends RunStart {
  inputs_schema: Record<string, unknown>;
  inputs: Record<string, unknown>;
  /** Ops this worker's task queue must provide. */
  ops: string[];
}

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** Validates run inputs against a plan's JSON Schema; returns one line per problem. */
export function inputProblems(schema: Record<string, unknown>, inputs: unknown): string[] {
  if (Object.keys(schema).length === 0) return [];
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  if (validate(inputs)) return [];
  return (validate.errors ?? []).map((e) => `inputs${e.instancePath.replace(/\//g, '.')}: ${e.message ?? 'invalid'}`);
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
