/**
 * `plangraph dev | worker | api | migrate`: the long-running processes.
 */
import { constants } from 'node:os';
import type { Command } from 'commander';
import { Runtime, type NativeConnection, type Worker } from '@temporalio/worker';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../../api/server';
import { temporalUiUrl, type Config } from '../../config';
import { createServices, type Services } from '../../services';
import { connectWorker, createWorker, workerRuntimeOptions } from '../../temporal/worker';
import { startBackgroundJobs } from '../../background';
import { installTracing, tracesUrl } from '../../telemetry/tracing';
import { DomainError } from '../../domain/errors';
import { configFromEnv, ensureTemporal, migrateOrFail, requireTemporal } from '../runtime';

const log = (line: string) => console.log(`[plangraph] ${line}`);

async function startWorker(services: Services, connection: NativeConnection): Promise<{ worker: Worker; running: Promise<void> }> {
  const worker = await createWorker({ config: services.config, db: services.db, registry: services.registry, connection });
  const running = worker.run();
  log(`worker: polling task queue "${services.config.TEMPORAL_TASK_QUEUE}" with ops ${[...services.registry.keys()].sort().join(', ')}`);
  return { worker, running };
}

async function startApi(services: Services): Promise<FastifyInstance> {
  const api = await buildApi(services, { logger: false });
  const { API_HOST: host, API_PORT: port } = services.config;
  await api.listen({ host, port }).catch(async (err: NodeJS.ErrnoException) => {
    await api.close();
    if (err.code !== 'EADDRINUSE') throw err;
    throw new DomainError('unavailable', `the API cannot listen on ${host}:${port} (API_HOST, API_PORT): the address is in use, by another plangraph dev or api perhaps`);
  });
  log(`API: http://${host}:${port} (health: /healthz, OpenAPI: /docs, console: /ui)`);
  return api;
}

/**
 * A repeat of the first signal this soon is that signal relayed by a launcher, not a second
 * request: npm forwards a terminal's Ctrl-C to the process it runs, which the terminal has
 * signalled already.
 */
const RELAYED_SIGNAL_MS = 1_000;

/**
 * Resolves on the first SIGINT/SIGTERM/SIGHUP, which stops everything in order (the dev server,
 * in a process group of its own, gets no terminal's signal: this process stops it). Another
 * signal while that stop is under way (an impatient Ctrl-C, a SIGTERM after a SIGINT) exits at
 * once: without a handler Node would die on it before the dev server is stopped, leaving it running.
 */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    let first: { signal: NodeJS.Signals; at: number } | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (!first) {
        first = { signal, at: Date.now() };
        resolve(signal);
      } else if (signal !== first.signal || Date.now() - first.at >= RELAYED_SIGNAL_MS) {
        log(`${signal} while stopping: exiting now`);
        process.exit(128 + constants.signals[signal]);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  });
}

async function runProcesses(config: Config, parts: { worker: boolean; api: boolean; devServer: boolean }): Promise<void> {
  // Listening from the start: a signal while starting up stops the process once it is up.
  const stop = stopSignal();
  // The runtime serves worker metrics only where a worker runs.
  Runtime.install(workerRuntimeOptions(parts.worker ? config : { ...config, WORKER_METRICS_ADDRESS: undefined }));
  // Before any connection: the Temporal client and worker pick up tracing when they are created.
  const tracing = await installTracing(config, parts.devServer ? 'dev' : parts.worker ? 'worker' : 'api');
  if (tracing) log(`tracing: OTLP/HTTP to ${tracesUrl(config)}`);
  const devServer = parts.devServer ? await ensureTemporal(config, log) : (await requireTemporal(config), undefined);
  try {
    await runUntilSignal(config, parts, stop);
  } finally {
    // Never leave an orphan dev server behind, whether we stop cleanly or fail starting.
    await devServer?.stop();
    await tracing?.shutdown();
  }
}

async function runUntilSignal(config: Config, parts: { worker: boolean; api: boolean; devServer: boolean }, stop: Promise<string>): Promise<void> {
  await migrateOrFail(config);
  log('database: migrations applied');
  // Shared with the API's run starter, so runs it starts go straight to this worker (eager start).
  const workerConnection = parts.worker ? await connectWorker(config) : undefined;
  const services = await createServices(config, { workerConnection });
  // The API's port first: a second `plangraph dev` stops there, before its worker takes a task it would drop on exit.
  const api = parts.api ? await startApi(services) : undefined;
  const worker = workerConnection ? await startWorker(services, workerConnection) : undefined;
  const stopJobs = parts.devServer ? await startBackgroundJobs(services, log) : async () => undefined;
  if (parts.devServer) log(`Temporal UI: ${temporalUiUrl(config)}`);
  log('ready; Ctrl-C stops everything');

  const signal = await Promise.race([stop, worker ? worker.running.then(() => 'worker stopped') : new Promise<string>(() => undefined)]);
  log(`stopping (${signal})…`);
  await stopJobs();
  await api?.close();
  if (worker) {
    if (worker.worker.getState() === 'RUNNING') worker.worker.shutdown();
    await worker.running.catch(() => undefined);
    await workerConnection?.close();
  }
  await services.close();
  log('stopped');
}

export function registerDevCommands(program: Command): void {
  program
    .command('dev')
    .description('Run everything on embedded defaults: Temporal dev server + UI, migrations, worker and API')
    .action(() => runProcesses(configFromEnv(), { worker: true, api: true, devServer: true }));
  program
    .command('worker')
    .description('Run a worker (executor and consolidation workflows, every registered op)')
    .action(() => runProcesses(configFromEnv(), { worker: true, api: false, devServer: false }));
  program
    .command('api')
    .description('Run the HTTP API')
    .action(() => runProcesses(configFromEnv(), { worker: false, api: true, devServer: false }));
  program
    .command('migrate')
    .description('Create the database if missing and apply migrations')
    .action(async () => {
      await migrateOrFail(configFromEnv());
      log('migrations applied');
    });
}
