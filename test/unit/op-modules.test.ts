import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadOpModules, opDefinitionProblem } from '../../src/ops/registry';

const good = { name: 'fetch_ticket', description: 'reads a ticket', params: z.object({ id: z.string() }), run: async () => null };

describe('op definitions from user modules', () => {
  it('accepts a complete definition, local or not', () => {
    expect(opDefinitionProblem(good)).toBeUndefined();
    expect(opDefinitionProblem({ ...good, local: true })).toBeUndefined();
  });

  it.each([
    [null, 'an op definition is an object'],
    [{ ...good, name: '' }, '"name" must be a non-empty string'],
    [{ ...good, params: { id: 'string' } }, '"params" must be a zod schema'],
    [{ ...good, params: undefined }, '"params" must be a zod schema'],
    [{ ...good, run: 'fetch' }, '"run" must be a function'],
    [{ ...good, local: 'yes' }, '"local" must be true or false'],
  ])('names what is wrong with %j', (op, problem) => {
    expect(opDefinitionProblem(op)).toContain(problem);
  });

  it('refuses a module with a bad definition when it loads, naming the module, the index and the op', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-'));
    const path = join(dir, 'support-ops.mjs');
    writeFileSync(path, 'export const ops = [{ name: "ok", params: { safeParse() {} }, run: async () => 1 }, { name: "reply", params: {}, run: async () => 1 }];\n');
    await expect(loadOpModules([path])).rejects.toThrow(`op module ${path}: ops[1] ("reply"): "params" must be a zod schema`);
    const fine = join(dir, 'fine-ops.mjs');
    writeFileSync(fine, 'export default [{ name: "ok", params: { safeParse() {} }, run: async () => 1 }];\n');
    expect((await loadOpModules([fine])).map((op) => op.name)).toEqual(['ok']);
  });
});
