/**
 * The lint rules that guard the architecture catch what they claim to: each deliberate violation
 * below is linted as if it sat in the named file, and each allowed import passes.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it, vi } from 'vitest';

// Snippets are linted at paths that do not exist, so type-aware rules (which need a program) are
// off; none of the rules checked here needs types. Loading ESLint and its plugins is slow on a busy machine.
const eslint = new ESLint({ overrideConfig: [tseslint.configs.disableTypeChecked] });
vi.setConfig({ testTimeout: 120_000 });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('lint: layers point down', () => {
  it.each([
    ['src/domain/probe.ts', `import { createDb } from '../db/client';`],
    ['src/domain/probe.ts', `import { Pool } from 'pg';`],
    ['src/domain/probe.ts', `import { readFileSync } from 'node:fs';`],
    ['src/store/probe.ts', `import { buildApi } from '../api/server';`],
    ['src/store/probe.ts', `import { retrieve } from '../retrieval/retrieve';`],
    ['src/db/probe.ts', `import { createRecordStore } from '../store/records';`],
    ['src/consolidation/probe.ts', `import { createServices } from '../services';`],
    ['src/runs/probe.ts', `import { createWorker } from '../temporal/worker';`],
    ['activities/probe.ts', `import { registerCommands } from '../src/cli/commands/index';`],
  ])('%s may not run %s', async (path, code) => {
    expect(await restrictedImports(path, code)).toEqual([expect.stringMatching(/layer above|pure/)]);
  });

  it.each([
    ['src/domain/probe.ts', `import { z } from 'zod';\nimport { sensitivityRank } from './records';`],
    ['src/store/probe.ts', `import type { Db } from '../db/client';\nimport { visibility } from '../domain/trust';`],
    ['src/runs/probe.ts', `import type { planExecutorWorkflow } from '../../workflows/plan-executor';\nimport type { Services } from '../services';`],
    ['src/api/probe.ts', `import { createServices } from '../services';\nimport { startPlanRun } from '../runs/start-run';`],
  ])('%s may run %s', async (path, code) => {
    expect(await restrictedImports(path, code)).toEqual([]);
  });
});

describe('lint: workflow code imports only the sandbox-safe allowlist', () => {
  for (const dir of ['workflows', 'bench/workflows', 'test/fixtures/workflows']) {
    it(`${dir}: a value from a store, a Node builtin or an unlisted package is refused`, async () => {
      const code = [`import { createRecordStore } from '../src/store/records';`, `import { randomUUID } from 'node:crypto';`, `import { z } from 'zod';`].join('\n');
      expect(await restrictedImports(`${dir}/probe.ts`, code)).toHaveLength(3);
    });
  }

  it('types from activities, @temporalio/workflow, its own folder and the domain are allowed', async () => {
    const code = [
      `import { proxyActivities } from '@temporalio/workflow';`,
      `import type { createRunActivities } from '../activities/run-activities';`,
      `import { planGraphPayloadSchema } from '../src/domain/records';`,
      `import { helper } from './plan-run';`,
    ].join('\n');
    expect(await restrictedImports('workflows/probe.ts', code)).toEqual([]);
  });
});

describe('lint: import cycles', () => {
  it('reports a cycle between two modules', async () => {
    const cycles = new ESLint({ ignore: false, overrideConfig: [tseslint.configs.disableTypeChecked] });
    const results = await cycles.lintFiles(['test/fixtures/lint/cycle-a.ts', 'test/fixtures/lint/cycle-b.ts']);
    const rules = results.flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(rules.filter((rule) => rule === 'import-x/no-cycle')).toHaveLength(2);
  });
});
