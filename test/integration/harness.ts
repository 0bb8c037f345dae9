/**
 * Per-file test context: a config pointing at the run's Temporal server and database, a client,
 * and a worker on a task queue of the file's own.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config';
import { createDb, type Db } from '../../src/db/client';
import { loadOpRegistry } from '../../src/ops/registry';
import { connectTemporal, temporalConnectionOptions } from '../../src/temporal/connection';
import { createWorker } from '../../src/temporal/worker';

export const TEST_OPS_MODULE = resolve(import.meta.dirname, '../fixtures/test-ops.ts');

let runtimeInstalled = false;

export interface TestContext {
  config: Config;
  db: Db;
  client: Client;
  connection: Connection;
  nativeConnection: NativeConnection;
  taskQueue: string;
  /** Runs a worker on this file's task queue while `fn` runs. */
  withWorker<T>(fn: () => Promise<T>, overrides?: Partial<Config>): Promise<T>;
  close(): Promise<void>;
}

/** Unique id for workflow ids and names in a test. */
export function uid(prefix = 't'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export async function createTestContext(overrides: Record<string, string> = {}): Promise<TestContext> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const taskQueue = uid('tq');
  const config = loadConfig({
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: taskQueue,
    OPS_MODULES: TEST_OPS_MODULE,
    ...overrides,
  });
  const db = createDb(config.DATABASE_URL);
  // As the product connects (histories of large runs outgrow gRPC's default 4 MB per message).
  const { connection, client } = await connectTemporal(config);
  const nativeConnection = await NativeConnection.connect(temporalConnectionOptions(config));
  const ctx: TestContext = {
    config,
    db,
    client,
    connection,
    nativeConnection,
    taskQueue,
    async withWorker(fn, workerOverrides = {}) {
      const workerConfig = { ...config, ...workerOverrides };
      const worker = await createWorker({
        config: workerConfig,
        db,
        registry: await loadOpRegistry(workerConfig),
        connection: nativeConnection,
        workflowBundlePath: inject('workflowBundlePath'),
      });
      return worker.runUntil(fn);
    },
    async close() {
      await connection.close();
      await nativeConnection.close();
      await db.$client.end();
    },
  };
  return ctx;
}

/**
 * Starts one worker for a whole test file (call in beforeAll); the returned function stops it and
 * waits until it has shut down (call in afterAll). Each test still uses its own plans and ids.
 */
export async function startFileWorker(ctx: TestContext): Promise<() => Promise<void>> {
  let stop!: () => void;
  let ready!: () => void;
  const started = new Promise<void>((r) => (ready = r));
  const done = ctx.withWorker(() => {
    ready();
    return new Promise<void>((resolve) => (stop = resolve));
  });
  await started;
  return async () => {
    stop();
    await done;
  };
}

/**
 * A test context with one worker on its task queue for the whole test file (registers its own
 * beforeAll/afterAll). The returned object is filled in beforeAll, so tests use it as usual.
 */
export function useWorkerContext(): TestContext {
  const ctx = {} as TestContext;
  let made: TestContext | undefined;
  let stopWorker: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    made = await createTestContext();
    Object.assign(ctx, made);
    stopWorker = await startFileWorker(made);
  });
  afterAll(async () => {
    await stopWorker?.();
    await made?.close();
  });
  return ctx;
}
