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
