/**
 * The bench's own world: a headless in-memory Temporal dev server on a free port, a fresh
 * Postgres database (dropped at the end), one workflow bundle (real workflows + baselines) and
 * workers run in-process on task queues of their own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, type WorkerOptions } from '@temporalio/worker';
import type { OpRegistry } from '../../src/ops/registry';
import type { Config } from '../../src/config';
import { createDb, createScratchDatabase, type Db } from '../../src/db/client';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { findTemporalCli } from '../../src/temporal/cli-binary';
import { clientOver, connectTemporal } from '../../src/temporal/connection';
import { startDevServerOnFreePort } from '../../src/temporal/dev-server';
import { loadOpRegistry } from '../../src/ops/registry';
import { createWorker } from '../../src/temporal/worker';
import { createRecordStore, type RecordStore } from '../../src/store/records';
import { createRunStore } from '../../src/store/plan-runs';
import type { RunOpener } from '../../src/runs/start-run';

const BENCH_WORKFLOWS_PATH = resolve(import.meta.dirname, '../workflows/index.ts');

export interface BenchEnv {
  config: Config;
  db: Db;
  client: Client;
  /**
   * The client runs and baselines are started with, as `plangraph dev` starts runs: over the
   * worker's native connection, so starts requested eagerly hand the first workflow task to it.
   */
  starter: Client;
  records: RecordStore;
  registry: OpRegistry;
  /** Opens runs in the starter, as the API does (src/runs/start-run.ts). */
  opener: RunOpener;
  /** The Temporal CLI used for the dev server. */
  cliPath: string;
  /** Process id of the dev server, for CPU accounting. */
  serverPid: number;
  /** The workflow bundle the bench workers run (also for replaying histories). */
  bundlePath: string;
  /** Runs a worker (bench bundle, all activities) on a fresh task queue while `fn` runs. */
  /** Runs `fn` beside a worker on its own task queue, optionally with some settings changed. */
  withWorker<T>(fn: (taskQueue: string) => Promise<T>, options?: Partial<WorkerOptions>, settings?: Partial<Config>): Promise<T>;
  close(): Promise<void>;
}

/** A unique id with a readable prefix. */
export function uid(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };

/** Starts everything the scenarios need; `close()` tears it all down again. */
export async function startBenchEnv(base: Config, log: (line: string) => void): Promise<BenchEnv> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const cliPath = findTemporalCli(base.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('no Temporal CLI found: run `node scripts/setup.mjs` or set TEMPORAL_CLI_PATH');

  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => log(`cleanup failed: ${String(err)}`));
  };
  try {
    const database = await createScratchDatabase(base.DATABASE_URL, 'plangraph_bench');
    log(`database ${new URL(database.url).pathname.slice(1)}`);
    cleanups.push(() => database.drop());

    const server = await startDevServerOnFreePort({ cliPath });
    cleanups.push(() => server.stop());
    log(`Temporal dev server on ${server.address}`);

    const bundle = await bundleWorkflowCode({ workflowsPath: BENCH_WORKFLOWS_PATH, logger: quiet });
    const bundleDir = mkdtempSync(join(tmpdir(), 'plangraph-bench-'));
    cleanups.push(async () => rmSync(bundleDir, { recursive: true, force: true }));
    const bundlePath = join(bundleDir, 'workflows.js');
    writeFileSync(bundlePath, bundle.code);

    const config: Config = { ...base, DATABASE_URL: database.url, TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'default' };
    // Large enough for 200 concurrent runs' activities plus the bench's own queries.
    const db = createDb(config.DATABASE_URL, 20);
    cleanups.push(() => db.$client.end());
    const { client, close: closeClient } = await connectTemporal(config);
    cleanups.push(closeClient);
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => nativeConnection.close());
    const registry = await loadOpRegistry(config);

    return {
      config,
      db,
      client,
      starter: clientOver(nativeConnection, config.TEMPORAL_NAMESPACE),
      records: createRecordStore(db, hashEmbedder),
      registry,
      opener: { runs: createRunStore(db), registry },
      cliPath,
      serverPid: server.process.pid ?? 0,
      bundlePath,
      async withWorker(fn, options = {}, settings = {}) {
        const taskQueue = uid('bench');
        const worker = await createWorker({ config: { ...config, ...settings }, db, registry, connection: nativeConnection, workflowBundlePath: bundlePath, taskQueue, extra: options });
        return worker.runUntil(() => fn(taskQueue));
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
