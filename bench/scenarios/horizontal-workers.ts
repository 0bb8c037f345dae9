/**
 * Scenario: horizontal workers. The same burst of runs against one `plangraph worker` process
 * and against two on the same task queue and database, side by side.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startPlanRun } from '../../src/runs/start-run';
import { uid, type BenchEnv } from '../lib/environment';
import { chainShape, storePlan } from '../lib/plans';
import type { Scenario } from '../lib/scenario';
import { median, percentile, round } from '../lib/stats';

const RUNS = 100;
const NODES = 5;
/** Batches per side, alternating 1-2-2-1… so drift in the shared machine's load hits both. */
const REPETITIONS = 2;
const ROOT = resolve(import.meta.dirname, '../..');

interface Batch {
  workers: number;
  runsPerSecond: number;
  latencies: number[];
}

/** Starts `plangraph worker` as users run it; resolves with a stop function once it polls. */
async function startWorkerProcess(env: BenchEnv, taskQueue: string): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: env.config.DATABASE_URL, TEMPORAL_ADDRESS: env.config.TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/worker: polling/.test(output)) ready();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => fail(new Error(`worker exited (${String(code)}) before polling: ${output.slice(-2000)}`)));
  });
  return async () => {
    child.kill('SIGTERM');
    await exited;
  };
}

async function burst(env: BenchEnv, workers: number, record: Awaited<ReturnType<typeof storePlan>>): Promise<Batch> {
  const taskQueue = uid('horizontal');
  const stops = await Promise.all(Array.from({ length: workers }, () => startWorkerProcess(env, taskQueue)));
  try {
    const t0 = performance.now();
    const latencies = await Promise.all(
      Array.from({ length: RUNS }, async () => {
        const began = performance.now();
        await (await startPlanRun({ client: env.client, taskQueue, record })).result();
        return performance.now() - began;
      }),
    );
    return { workers, runsPerSecond: RUNS / ((performance.now() - t0) / 1000), latencies };
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
}

export const horizontalWorkers: Scenario = {
  name: 'horizontal-workers',
  title: `Horizontal workers (${RUNS} concurrent runs of a ${NODES}-node plan, one vs two worker processes)`,
  method:
    `${RUNS} runs of a ${NODES}-node \`noop\` chain are started at once and awaited, on a fresh task queue served by one ` +
    '`plangraph worker` process, then by two (separate processes, same task queue and database, default worker options). ' +
    `${REPETITIONS} batches per side in the order 1, 2, 2, 1…; medians. Workers are started before and stopped after each ` +
    'batch; start-up is not measured.',
  analysis:
    'A second worker process adds a second event loop, so the gain is bounded by free cores: on a machine whose cores are ' +
    'already taken by the dev server, the bench client and other tenants, two workers can only do as well as the CPU left ' +
    'over allows. The ratio is the figure to read; the absolute rate depends on the machine (see the throughput scenario).',
  async run(env, log) {
    const record = await storePlan(env, chainShape(NODES), 'bench: horizontal workers');
    const batches: Batch[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      for (const workers of rep % 2 === 0 ? [1, 2] : [2, 1]) {
        const batch = await burst(env, workers, record);
        log(`${workers} worker(s): ${round(batch.runsPerSecond, 1)} runs/s, p50 ${round(percentile(batch.latencies, 50))} ms, p95 ${round(percentile(batch.latencies, 95))} ms`);
        batches.push(batch);
      }
    }
    const side = (workers: number) => batches.filter((b) => b.workers === workers);
    const rate = (workers: number) => median(side(workers).map((b) => b.runsPerSecond));
    const p50 = (workers: number) => percentile(side(workers).flatMap((b) => b.latencies), 50);
    return {
      figures: [
        { label: 'one worker: runs/s (median batch)', value: round(rate(1), 1), unit: 'runs/s' },
        { label: 'two workers: runs/s (median batch)', value: round(rate(2), 1), unit: 'runs/s' },
        { label: 'two / one worker throughput', value: round(rate(2) / rate(1)) },
        { label: 'one worker: latency p50', value: round(p50(1)), unit: 'ms' },
        { label: 'two workers: latency p50', value: round(p50(2)), unit: 'ms' },
      ],
      notes: [`Batches (runs/s): ${batches.map((b) => `${b.workers}w ${round(b.runsPerSecond, 1)}`).join(', ')}.`],
    };
  },
};
