/**
 * The op registry as Temporal activities: one activity per op, named after it, validating params
 * and capping output size; plus `default` for activity types no op provides.
 */
import { activityInfo, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { formatPath } from '../src/domain/graph';
import type { NodeActivityInput, NodeActivityResult } from '../src/domain/run-state';
import { NODE_ERROR_TYPES } from '../src/domain/run-state';
import type { OpRegistry } from '../src/ops/registry';

function failure(type: string, message: string, attempt: number, nonRetryable: boolean, cause?: Error): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable, details: [{ attempt }], cause });
}

/**
 * Turns the registry into Temporal activities: one per op name, plus `default`, which receives
 * every activity type no op provides and fails it non-retryably.
 */
export function createOpActivities(registry: OpRegistry, options: { outputLimitBytes: number }) {
  const activities: Record<string, (input: NodeActivityInput) => Promise<NodeActivityResult>> = {};
  for (const op of registry.values()) {
    activities[op.name] = async (input) => {
      const ctx = Context.current();
      const attempt = activityInfo().attempt;
      const parsed = op.params.safeParse(input.params);
      if (!parsed.success) {
        const detail = parsed.error.issues.map((i) => `${formatPath(i.path) || 'params'}: ${i.message}`).join('; ');
        throw failure(NODE_ERROR_TYPES.invalidParams, `node "${input.node_id}" (${op.name}): invalid params: ${detail}`, attempt, true);
      }
      let output: unknown;
      try {
        output = await op.run(parsed.data, {
          nodeId: input.node_id,
          inputs: input.inputs,
          heartbeat: (details) => ctx.heartbeat(details),
          signal: ctx.cancellationSignal,
          attempt,
        });
      } catch (err) {
        if (err instanceof ApplicationFailure) {
          throw failure(err.type ?? 'Error', err.message, attempt, err.nonRetryable === true, err);
        }
        if (ctx.cancellationSignal.aborted) throw err;
        const e = err instanceof Error ? err : new Error(String(err));
        throw failure(e.name || 'Error', e.message, attempt, false, e);
      }
      const size = Buffer.byteLength(JSON.stringify(output ?? null));
      if (size > options.outputLimitBytes) {
        throw failure(
          NODE_ERROR_TYPES.outputTooLarge,
          `node "${input.node_id}" (${op.name}) returned ${size} bytes; the limit is ${options.outputLimitBytes}`,
          attempt,
          true,
        );
      }
      return { output: output ?? null, attempt };
    };
  }
  activities.default = async (input) => {
    const type = activityInfo().activityType;
    throw failure(NODE_ERROR_TYPES.unknownOp, `node "${input?.node_id}": no worker provides op "${type}"`, activityInfo().attempt, true);
  };
  return activities;
}
