/**
 * Starts the Temporal dev server (with its Web UI) as a child process and waits until it
 * answers. Used by `plangraph dev`, the test harness and the benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../net';

export const SEARCH_ATTRIBUTES = { PlanId: 'Keyword', PlanIntent: 'Keyword' } as const;

/**
 * Dynamic config of every Temporal server plangraph starts (`plangraph dev`, the tests, the
 * benchmarks). Out of the box the dev server's task processors read at most 20 batches a second,
 * which adds ~40 ms to every task after a short burst. And its one history shard keeps every task
 * it loaded, done or not, in its queue's tracker until the queue checkpoints (every 30 s): at 20–25
 * runs/s 30 s of tasks come near 9,000, the queue then splits its slices to shed load, and each new
 * batch of tasks walks all of them — about 7 ms of server CPU per run, for whichever side of a
 * benchmark crossed the threshold. Checkpointing every second keeps the trackers small.
 * The CLI also turns off the search-attribute cache, so that attributes added while it runs are
 * seen at once; then every request and visibility record that touches one reads the cluster
 * metadata from SQLite, and every alias lookup reads the namespace under one global lock (1.5–1.8%
 * of the server's CPU in a burst of runs). plangraph's attributes exist from the start (the
 * `--search-attribute` flags create them with the namespace), so the cache is safe to keep.
 * Eager activity execution (off by default in the server) hands a node's activity back to the
 * worker in the reply to the workflow task that scheduled it, when that worker has a free slot,
 * instead of a trip through matching and a second write to record its start: ~20% less server
 * CPU per run and ~20% more runs/s in a burst of 5-node runs (docs/operations.md).
 * One partition per task queue: a dev server serves one worker, and with Temporal's default of
 * four a burst of runs left a few of their tasks in a partition none of its pollers was waiting
 * on (200-run bursts of 5-node runs on 2 cores: the slowest run 0.9–2.0 s behind the 95th
 * percentile in 15 of 28 bursts, against 64 ms at most with one partition). A server whose state
 * was kept from before keeps Temporal's default (see partitionedConfig).
 */
export const DEV_SERVER_DYNAMIC_CONFIG = {
  'history.transferProcessorMaxPollRPS': 10_000,
  'history.timerProcessorMaxPollRPS': 10_000,
  'history.visibilityProcessorMaxPollRPS': 10_000,
  'history.transferProcessorUpdateAckInterval': '1s',
  'history.timerProcessorUpdateAckInterval': '1s',
  'history.visibilityProcessorUpdateAckInterval': '1s',
  'system.forceSearchAttributesCacheRefreshOnRead': false,
  'system.enableActivityEagerExecution': true,
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
};

const PARTITION_KEYS = ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions'];

/**
 * The dynamic config for a server on `dbFile`. Lowering a task queue's partitions strands the tasks
 * waiting in the partitions dropped (Temporal lowers write partitions first and lets the backlog
 * drain), so a state file created before plangraph used one partition keeps Temporal's default. A
 * marker beside the file records that its task queues were made with one partition.
 */
export function partitionedConfig(config: Record<string, string | number | boolean>, dbFile: string | undefined) {
  const marker = `${dbFile}.one-partition`;
  if (!dbFile || existsSync(marker)) return config;
  if (existsSync(dbFile)) return Object.fromEntries(Object.entries(config).filter(([key]) => !PARTITION_KEYS.includes(key)));
  writeFileSync(marker, 'The task queues of the Temporal dev server state beside this file have one partition each.\n');
  return config;
}

export interface DevServerOptions {
  cliPath: string;
  port: number;
  uiPort?: number;
  /** SQLite file that keeps histories across restarts; in-memory when omitted. */
  dbFile?: string;
  namespace?: string;
  /** Dynamic config, passed as `--dynamic-config-value KEY=JSON`; DEV_SERVER_DYNAMIC_CONFIG by default. */
  dynamicConfig?: Record<string, string | number | boolean>;
  log?: (line: string) => void;
  /**
   * Start it in a process group of its own, so that only this process stops it. A terminal's
   * Ctrl-C signals the whole foreground job: a server in that job would die at once, under a
   * `plangraph dev` that is still starting up and about to call it.
   */
  ownProcessGroup?: boolean;
}

export interface DevServer {
  address: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The dev server ended before it answered (raised by startDevServer). */
export class DevServerExitedError extends Error {}

/**
 * A dev server on a free port, tried up to three times. The CLI picks its internal ports (history,
 * matching, metrics, HTTP) by binding a free port and closing it, so a connection another process
 * opens meanwhile can take one and end the server at start-up; a new try picks new ports.
 */
export async function startDevServerOnFreePort(options: Omit<DevServerOptions, 'port'>): Promise<DevServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevServer({ ...options, port: await freePort() });
    } catch (err) {
      if (attempt >= 3 || !(err instanceof DevServerExitedError)) throw err;
      options.log?.(`${err.message}\nstarting it again on another port\n`);
    }
  }
}

/** Spawns `temporal server start-dev` and resolves once its frontend answers. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--log-level', 'warn'];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.dbFile) {
    mkdirSync(dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  const dynamicConfig = partitionedConfig(options.dynamicConfig ?? DEV_SERVER_DYNAMIC_CONFIG, options.dbFile);
  if (options.namespace && options.namespace !== 'default') args.push('--namespace', options.namespace);
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(dynamicConfig)) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);

  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownProcessGroup ?? false });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 50) output.shift();
    options.log?.(text);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Whichever way this process ends short of SIGKILL, the server it started goes with it.
  const stopOnExit = () => child.kill('SIGTERM');
  process.once('exit', stopOnExit);
  void exited.then(() => process.off('exit', stopOnExit));

  const address = `127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const early = await Promise.race([exited, new Promise((r) => setTimeout(() => r('wait'), 250))]);
    if (early !== 'wait') {
      throw new DevServerExitedError(`Temporal dev server exited with code ${String(early)}: ${output.join('').slice(-4000)}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`Temporal dev server did not answer on ${address} within 60 s: ${String(err)}`);
      }
    }
  }
  return {
    address,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
