// @ts-check
import { defineConfig } from 'eslint/config';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

const SANDBOX = 'runs in the deterministic workflow sandbox: no I/O or host access here';
const DOMAIN_PACKAGES = '(zod|@temporalio/workflow|@temporalio/common)';
const domainOnly = (regex) => ({ regex, message: `The domain is pure (zod, @temporalio/workflow and /common, its own modules): it ${SANDBOX}.` });

/**
 * The layers of src/, lowest first: a file may import values from its own layer and those below,
 * never from a layer above (types may cross, as a client names the workflow it starts). Each entry
 * lists the folders or top-level files of one layer, as path segments.
 */
const LAYERS = [
  ['domain'],
  ['config', 'package-files', 'prng', 'net', 'db', 'ops', 'embeddings', 'temporal/connection', 'temporal/cli-binary', 'temporal/dev-server', 'temporal/real-server', 'telemetry'],
  ['store'],
  ['retrieval', 'consolidation'],
  ['services'],
  ['runs', 'intents', 'background', 'activities', 'workflows'],
  ['temporal/worker', 'replay', 'api', 'mcp', 'cli', 'client', 'index'],
];

/** A relative import naming one of a layer's folders or top-level files, wherever the importing file sits. */
const importOf = (segments) => `^(\\.\\./)+(src/)?(${segments.join('|')})(/|$)`;
/** Files of a layer, as lint globs. */
const filesOf = (segments) =>
  segments.flatMap((s) => (s === 'activities' || s === 'workflows' ? [`${s}/**/*.ts`] : [`src/${s}.ts`, `src/${s}/**/*.ts`]));

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  files: filesOf(layer),
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: importOf(LAYERS.slice(i + 1).flat()),
            allowTypeImports: true,
            message: `Layers point down: ${layer.join(', ')} may not import a value from a layer above it.`,
          },
        ],
      },
    ],
  },
}));

export default defineConfig(
  // test/fixtures/lint holds deliberate violations that test/unit/lint-rules.test.ts lints on purpose.
  { ignores: ['node_modules/', '.data/', '.tools/', 'dist/', 'migrations/', 'bin/', 'scripts/', 'test/fixtures/lint/'] },
  tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      // Dependencies are parsed for cycles only when their extension is listed.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // A closure may read a variable before its single assignment (the status query does).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  { files: ['**/*.js', '**/*.mjs', '*.config.ts'], extends: [tseslint.configs.disableTypeChecked] },
  ...layerRules,
  {
    // The pure domain imports zod, Temporal's sandbox-safe packages (message definitions) and its own modules.
    files: ['src/domain/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [domainOnly(`^(?!${DOMAIN_PACKAGES}$|\\./)`)] }] },
  },
  {
    // structure.ts hashes with node:crypto; no workflow imports it.
    files: ['src/domain/structure.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [domainOnly(`^(?!${DOMAIN_PACKAGES}$|node:crypto$|\\./)`)] }] },
  },
  {
    // inputs-schema.ts compiles JSON Schemas with Ajv (and its formats); no workflow imports it (graph.ts takes its check as an option).
    files: ['src/domain/inputs-schema.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [domainOnly(`^(?!${DOMAIN_PACKAGES}$|ajv$|ajv-formats$|\\./)`)] }] },
  },
  {
    // Workflow code, wherever it lives, may import values only from @temporalio/workflow, its own
    // folder, workflows/ and the pure domain; anything else may be named by type (proxyActivities<typeof …>).
    files: ['workflows/**/*.ts', 'bench/workflows/**/*.ts', 'test/fixtures/workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@temporalio/workflow$|\\./|(\\.\\./)+(src/domain|workflows)/)',
              allowTypeImports: true,
              message: `Workflow code imports values only from @temporalio/workflow, its own folder, workflows/ and src/domain: it ${SANDBOX}.`,
            },
          ],
        },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: `Configuration comes from src/config.ts; workflow code ${SANDBOX}.` }],
    },
  },
);
