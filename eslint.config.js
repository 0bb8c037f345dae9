// @ts-check
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const SANDBOX = 'runs in the deterministic workflow sandbox: no I/O or host access here';

export default defineConfig(
  { ignores: ['node_modules/', '.data/', '.tools/', 'migrations/', 'bin/', 'scripts/'] },
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // A closure may read a variable before its single assignment (the status query does).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Workflow code and the pure domain it imports (structure.ts hashes with node:crypto and is never imported by workflows).
    files: ['workflows/**/*.ts', 'src/domain/**/*.ts'],
    ignores: ['src/domain/structure.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...[...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({ name, message: `Node builtin: workflow code ${SANDBOX}.` })),
            ...['pg', 'drizzle-orm', 'fastify', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'].map((name) => ({ name, message: `Workflow code ${SANDBOX}.` })),
          ],
          patterns: [
            { group: ['drizzle-orm/*', '@fastify/*', 'pg-*'], message: `Workflow code ${SANDBOX}.` },
            // Activities, stores and config may be named by type (proxyActivities<typeof …>), never imported as values.
            { group: ['**/activities', '**/activities/**', '../src/**', '!../src/domain', '!../src/domain/**'], allowTypeImports: true, message: `Only types may be imported from outside workflows/ and src/domain/: workflow code ${SANDBOX}.` },
          ],
        },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: `Configuration comes from src/config.ts; workflow code ${SANDBOX}.` }],
    },
  },
);
