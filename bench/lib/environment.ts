/**
 * The bench's own world: a headless in-memory Temporal dev server on a free port, a fresh
 * Postgres database (dropped at the end), one workflow bundle (real workflows + baselines) and
 * workers run in-process on task queues of their own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, type WorkerOptions } from '@temporalio/worker';
import pg from 'pg';
import type { OpRegistry } from '../../activities/op-registry';
import type { Config } from '../../src/config';
import { createDb, prepareDatabase, type Db } from '../../src/db/client';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { findTemporalCli } from '../../src/temporal/cli-binary';
import { startDevServer } from '../../src/temporal/dev-server';
import { createWorker, loadOpRegistry } from '../../src/temporal/worker';
import { createRecordStore, type RecordStore } from '../../src/store/records';

const BENCH_WORKFLOWS_PATH = resolve(import.meta.dirname, '../workflows/index.ts');

/**
 * The dev server's history queues read at most 20 batches a second per shard by default: after
 * a short burst every task dispatch waits ~40 ms, which would dominate every figure here.
 * Production clusters tune these; the bench lifts them so it measures plangraph, not the throttle.
 */
export const DEV_SERVER_DYNAMIC_CONFIG = {
  'history.transferProcessorMaxPollRPS': 10_000,
  'history.timerProcessorMaxPollRPS': 10_000,
  'history.visibilityProcessorMaxPollRPS': 10_000,
};

export interface BenchEnv {
  config: Config;
  db: Db;
  client: Client;
  records: RecordStore;
  registry: OpRegistry;
  /** The Temporal CLI used for the dev server. */
  cliPath: string;
  /** Process id of the dev server, for CPU accounting. */
  serverPid: number;
  /** Runs a worker (bench bundle, all activities) on a fresh task queue while `fn` runs. */
  withWorker<T>(fn: (taskQueue: string) => Promise<T>, options?: Partial<WorkerOptions>): Promise<T>;
  close(): Promise<void>;
}

/** A unique id with a readable prefix. */
export function uid(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };

async function dropDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Starts everything the scenarios need; `close()` tears it all down again. */
export async function startBenchEnv(base: Config, log: (line: string) => void): Promise<BenchEnv> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const cliPath = findTemporalCli(base.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('no Temporal CLI found: run `node scripts/setup.mjs` or set TEMPORAL_CLI_PATH');

  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/plangraph_bench_${randomBytes(4).toString('hex')}`;
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => log(`cleanup failed: ${String(err)}`));
  };
  try {
    log(`database ${dbUrl.pathname.slice(1)}`);
    await prepareDatabase(dbUrl.toString());
    cleanups.push(() => dropDatabase(dbUrl.toString()));

    const server = await startDevServer({ cliPath, port: await freePort(), dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG });
    cleanups.push(() => server.stop());
    log(`Temporal dev server on ${server.address}`);

    const bundle = await bundleWorkflowCode({ workflowsPath: BENCH_WORKFLOWS_PATH, logger: quiet });
    const bundleDir = mkdtempSync(join(tmpdir(), 'plangraph-bench-'));
    cleanups.push(async () => rmSync(bundleDir, { recursive: true, force: true }));
    const bundlePath = join(bundleDir, 'workflows.js');
    writeFileSync(bundlePath, bundle.code);

    const config: Config = { ...base, DATABASE_URL: dbUrl.toString(), TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'default' };
    // Large enough for 200 concurrent runs' activities plus the bench's own queries.
    const db = createDb(config.DATABASE_URL, 20);
    cleanups.push(() => db.$client.end());
    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => nativeConnection.close());
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const registry = await loadOpRegistry(config);

    return {
      config,
      db,
      client,
      records: createRecordStore(db, hashEmbedder),
      registry,
      cliPath,
      serverPid: server.process.pid ?? 0,
      async withWorker(fn, options = {}) {
        const taskQueue = uid('bench');
        const worker = await createWorker({ config, db, registry, connection: nativeConnection, workflowBundlePath: bundlePath, taskQueue, extra: options });
        return worker.runUntil(() => fn(taskQueue));
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
