/**
 * One Temporal dev server and one fresh Postgres database per test run; workflows bundled once.
 * Each test file then connects with its own task queue (see test/integration/harness.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config';
import { createScratchDatabase } from '../src/db/client';
import { findTemporalCli } from '../src/temporal/cli-binary';
import { SEARCH_ATTRIBUTES, startDevServerOnFreePort } from '../src/temporal/dev-server';
import { WORKFLOWS_PATH } from '../src/package-files';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    databaseUrl: string;
    workflowBundlePath: string;
    temporalCliPath: string;
  }
}

/** A Temporal server for the run: its address, how to stop it, and the CLI binary if it came from one. */
export interface TestTemporal {
  address: string;
  stop(): Promise<void>;
  cliPath?: string;
}

export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return setupWith(project, startTestDevServer);
}

/** The dev server from the Temporal CLI, or (without a binary) the one the SDK downloads. */
async function startTestDevServer(): Promise<TestTemporal> {
  const config = loadConfig();
  const cliPath = findTemporalCli(config.TEMPORAL_CLI_PATH);
  let stopTemporal: () => Promise<void>;
  let address: string;
  if (cliPath) {
    const server = await startDevServerOnFreePort({ cliPath });
    address = server.address;
    stopTemporal = () => server.stop();
  } else {
    // A machine with internet but no binary: the SDK downloads and caches its own dev server.
    const env = await TestWorkflowEnvironment.createLocal({
      server: { extraArgs: Object.entries(SEARCH_ATTRIBUTES).flatMap(([k, v]) => ['--search-attribute', `${k}=${v}`]) },
    });
    address = env.connection.options.address;
    stopTemporal = () => env.teardown();
  }
  return { address, stop: stopTemporal, cliPath };
}

/** Database, Temporal server and workflow bundle for one run, handed to the tests by `inject`. */
export async function setupWith(project: TestProject, startTemporal: (databaseUrl: string) => Promise<TestTemporal>): Promise<() => Promise<void>> {
  const config = loadConfig();
  const database = await createScratchDatabase(config.DATABASE_URL, 'plangraph_test');
  const temporal = await startTemporal(config.DATABASE_URL).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });

  const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  const bundlePath = join(mkdtempSync(join(tmpdir(), 'plangraph-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, bundle.code);

  project.provide('temporalAddress', temporal.address);
  project.provide('databaseUrl', database.url);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('temporalCliPath', temporal.cliPath ?? '');

  return async () => {
    await temporal.stop();
    await database.drop();
  };
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
