/**
 * The op registry: each op is a named, zod-validated function that a plan node runs as a
 * Temporal activity whose type is the op name. Built-ins plus user modules (OPS_MODULES).
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { activityInfo, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import { formatPath } from '../src/domain/graph';
import type { NodeActivityInput, NodeActivityResult } from '../src/domain/run-state';
import { NODE_ERROR_TYPES } from '../src/domain/run-state';

/** What an op sees besides its params: its node, its data inputs and the activity context. */
export interface OpContext {
  nodeId: string;
  /** Outputs of the node's data predecessors, keyed by node id. */
  inputs: Record<string, unknown>;
  /** Heartbeats progress and throws once the run cancels this node. */
  heartbeat(details?: unknown): void;
  /** Aborted when Temporal cancels the activity. */
  signal: AbortSignal;
  attempt: number;
}

export interface OpDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: S;
  run(params: z.infer<S>, ctx: OpContext): Promise<unknown>;
}

/** Declares an op; its params are validated against the schema before it runs. */
export function defineOp<S extends z.ZodType>(definition: OpDefinition<S>): OpDefinition<S> {
  return definition;
}

export type OpRegistry = ReadonlyMap<string, OpDefinition>;

/** Builds a registry from op definitions; a duplicate name is a configuration error. */
export function createOpRegistry(ops: readonly OpDefinition[]): OpRegistry {
  const registry = new Map<string, OpDefinition>();
  for (const op of ops) {
    if (registry.has(op.name)) throw new Error(`op "${op.name}" is defined twice`);
    if (op.name === 'default') throw new Error('"default" is reserved for the unknown-op handler');
    registry.set(op.name, op);
  }
  return registry;
}

/** Loads user op modules: each exports `ops` (an array) or a default array of definitions. */
export async function loadOpModules(paths: readonly string[]): Promise<OpDefinition[]> {
  const loaded: OpDefinition[] = [];
  for (const path of paths) {
    const mod = (await import(pathToFileURL(resolve(path)).href)) as { ops?: OpDefinition[]; default?: OpDefinition[] };
    const ops = mod.ops ?? mod.default;
    if (!Array.isArray(ops)) throw new Error(`op module ${path} exports no "ops" array`);
    loaded.push(...ops);
  }
  return loaded;
}

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
