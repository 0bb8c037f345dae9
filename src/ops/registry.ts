/**
 * The op registry: each op is a named, zod-validated function that a plan node runs as a
 * Temporal activity whose type is the op name. Built-ins plus user modules (OPS_MODULES).
 * Pure definitions: the worker turns them into activities (activities/op-activities.ts), and
 * the API and CLI read the op names to refuse plans no worker can run.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { z } from 'zod';
import type { Config } from '../config';
import { builtinOps } from './builtins';

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
  /**
   * A cheap, pure op (no I/O, milliseconds of work): nodes using it run as local activities on
   * the executor's worker, saving a server round trip each, unless their policy says otherwise.
   * Their attempts are capped at 30 s and cannot heartbeat.
   */
  local?: boolean;
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

/** Built-in ops plus the user modules named in OPS_MODULES. */
export async function loadOpRegistry(config: Pick<Config, 'OPS_MODULES' | 'HTTP_OP_ALLOWED_HOSTS'>): Promise<OpRegistry> {
  return createOpRegistry([...builtinOps({ allowedHosts: config.HTTP_OP_ALLOWED_HOSTS }), ...(await loadOpModules(config.OPS_MODULES))]);
}
