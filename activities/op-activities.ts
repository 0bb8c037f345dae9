/**
 * The op registry as Temporal activities: one activity per op, named after it, validating params
 * and capping output size; plus `default` for activity types no op provides.
 */
import { activityInfo, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { formatPath } from '../src/domain/graph';
import { unstorablePath, wellFormedText } from '../src/domain/json-limits';
import { boundedText, ERROR_MESSAGE_LIMIT_BYTES, ERROR_STACK_LIMIT_BYTES } from '../src/domain/payload-size';
import type { NodeActivityInput, NodeActivityResult } from '../src/domain/run-state';
import { NODE_ERROR_TYPES } from '../src/domain/run-state';
import type { OpRegistry } from '../src/ops/registry';

/**
 * A failure Temporal can carry: its protocol holds only valid Unicode, and a lone surrogate in a
 * message or stack (common in what failing tools print) would fail the task completion and stop
 * the worker, so lone surrogates are written as their visible escapes. Messages and stacks are
 * bounded (ERROR_MESSAGE_LIMIT_BYTES): a cut one says so and gives its full size.
 */
function failure(type: string, message: string, attempt: number, nonRetryable: boolean, cause?: Error): ApplicationFailure {
  return ApplicationFailure.create({ type: carriableText(type, ERROR_MESSAGE_LIMIT_BYTES), message: carriableText(message, ERROR_MESSAGE_LIMIT_BYTES), nonRetryable, details: [{ attempt }], cause: cause && carriable(cause) });
}

const carriableText = (text: string, limitBytes: number) => boundedText(wellFormedText(text), limitBytes);

/** The error itself when Temporal can carry it as it is; else a copy with name, message and stack made carriable. */
function carriable(err: Error): Error {
  const stack = err.stack ?? '';
  const [name, message, carriedStack] = [carriableText(err.name, ERROR_MESSAGE_LIMIT_BYTES), carriableText(err.message, ERROR_MESSAGE_LIMIT_BYTES), carriableText(stack, ERROR_STACK_LIMIT_BYTES)];
  if (name === err.name && message === err.message && carriedStack === stack) return err;
  const copy = new Error(message);
  copy.name = name;
  copy.stack = carriedStack;
  return copy;
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
      // Outputs travel as JSON, which holds any text (escaped) but would turn Infinity or NaN
      // into null: such an output fails the node for good instead of arriving changed.
      const notJson = unstorablePath(output, { text: false });
      if (notJson) {
        const where = formatPath(['output', ...notJson.path]);
        throw failure(NODE_ERROR_TYPES.outputNotJson, `node "${input.node_id}" (${op.name}) returned ${where}, which ${notJson.message}`, attempt, true);
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
