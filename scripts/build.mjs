#!/usr/bin/env node
/**
 * Builds the package into dist/: the library, the client and the CLI as ES modules (their npm
 * dependencies stay imports), the workflow bundle the worker loads in place of the sources, and
 * type declarations. `npm pack` runs it (prepack); development runs the sources through tsx.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleWorkflowCode } from '@temporalio/worker';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
// Progress goes to stderr: `npm pack --json` prints its answer on stdout.
const step = (text) => console.error(`[build] ${text}`);

rmSync(dist, { recursive: true, force: true });

step('library, client and CLI…');
await build({
  entryPoints: { index: 'src/index.ts', client: 'src/client.ts', cli: 'src/cli/main.ts' },
  absWorkingDir: root,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

step('workflow bundle…');
const bundleLogger = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };
const workflowsPath = join(root, 'workflows/index.ts');
const { code } = await bundleWorkflowCode({ workflowsPath, logger: bundleLogger });
writeFileSync(join(dist, 'workflow-bundle.js'), code);
// Workers with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT) load this one: the same workflows plus
// Temporal's OpenTelemetry interceptors.
const traced = await bundleWorkflowCode({
  workflowsPath,
  workflowInterceptorModules: [createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
  logger: bundleLogger,
});
writeFileSync(join(dist, 'workflow-bundle-traced.js'), traced.code);

step('console assets…');
cpSync(join(root, 'src/api/console/assets'), join(dist, 'console-assets'), { recursive: true });

step('type declarations…');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
step('done: dist/');
