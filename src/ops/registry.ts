/**
 * The op registry: the built-in ops plus user modules (OPS_MODULES), by name. The worker turns
 * them into activities (activities/op-activities.ts), and the API and CLI read the op names to
 * refuse plans no worker can run.
 */
import { BUILTIN_EXECUTOR_OPS } from '../domain/approvals';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { Config } from '../config';
import { builtinOps } from './builtins';
import type { OpDefinition } from './define-op';

export type OpRegistry = ReadonlyMap<string, OpDefinition>;

/** Builds a registry from op definitions; a duplicate name is a configuration error. */
export function createOpRegistry(ops: readonly OpDefinition[]): OpRegistry {
  const registry = new Map<string, OpDefinition>();
  for (const op of ops) {
    if (registry.has(op.name)) throw new Error(`op "${op.name}" is defined twice`);
    if (op.name === 'default') throw new Error('"default" is reserved for the unknown-op handler');
    if (BUILTIN_EXECUTOR_OPS.has(op.name)) throw new Error(`"${op.name}" is built into the executor (docs/execution.md#approvals); an op cannot take its name`);
    registry.set(op.name, op);
  }
  return registry;
}

/** Loads user op modules: each exports `ops` (an array) or a default array of definitions. */
export async function loadOpModules(paths: readonly string[]): Promise<OpDefinition[]> {
  const loaded: OpDefinition[] = [];
  for (const path of paths) {
    const mod = (await import(pathToFileURL(resolve(path)).href)) as { ops?: OpDefinition[]; default?: OpDefinition[] };
    const ops: unknown = mod.ops ?? mod.default;
    if (!Array.isArray(ops)) throw new Error(`op module ${path} exports no "ops" array`);
    ops.forEach((op: unknown, i) => {
      const problem = opDefinitionProblem(op);
      if (problem) throw new Error(`op module ${path}: ops[${i}]${opLabel(op)}: ${problem}`);
    });
    loaded.push(...(ops as OpDefinition[]));
  }
  return loaded;
}

/**
 * What is wrong with a user's op definition, if anything: caught when the module loads, since a
 * worker would otherwise fail every node of the op, attempt after attempt, with a TypeError.
 */
export function opDefinitionProblem(op: unknown): string | undefined {
  if (typeof op !== 'object' || op === null) return 'an op definition is an object {name, description, params, run}';
  const { name, params, run, local } = op as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') return '"name" must be a non-empty string';
  if (typeof (params as { safeParse?: unknown } | null)?.safeParse !== 'function') return '"params" must be a zod schema (z.object({...}); z.any() accepts anything)';
  if (typeof run !== 'function') return '"run" must be a function (params, ctx) => Promise<output>';
  if (local !== undefined && typeof local !== 'boolean') return '"local" must be true or false';
  return undefined;
}

function opLabel(op: unknown): string {
  const name = (op as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? ` ("${name}")` : '';
}

/** Built-in ops plus the user modules named in OPS_MODULES. */
export async function loadOpRegistry(config: Pick<Config, 'OPS_MODULES' | 'HTTP_OP_ALLOWED_HOSTS'>): Promise<OpRegistry> {
  return createOpRegistry([...builtinOps({ allowedHosts: config.HTTP_OP_ALLOWED_HOSTS }), ...(await loadOpModules(config.OPS_MODULES))]);
}
