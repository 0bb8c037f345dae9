/**
 * Scenario 4: throughput. 200 runs of a 5-node plan started at once: runs per second and end-to-
 * end latency, beside the same load of hand-written 5-activity workflows on the same worker.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { startPlanRun } from '../../src/runs/start-run';
import { uid, type BenchEnv } from '../lib/environment';
import { chainShape, storePlan } from '../lib/plans';
import type { Scenario } from '../lib/scenario';
import { median, percentile, round } from '../lib/stats';

const RUNS = 200;
const NODES = 5;
const REPETITIONS = 3;

/**
 * Worker options for a burst of short workflows on 2 cores. Every run needs ~7 workflow tasks;
 * more concurrent task slots and pollers keep the server's queues drained instead of letting
 * tasks wait for a free poller, and a cache larger than the burst means no run is ever evicted
 * and replayed from its history.
 */
export const THROUGHPUT_WORKER_OPTIONS: Partial<WorkerOptions> = {
  maxConcurrentWorkflowTaskExecutions: 100,
  maxConcurrentWorkflowTaskPolls: 20,
  maxConcurrentActivityTaskExecutions: 400,
  maxConcurrentActivityTaskPolls: 20,
  maxConcurrentLocalActivityExecutions: 200,
  maxCachedWorkflows: 1000,
};

interface Batch {
  runsPerSecond: number;
  latencies: number[];
}

/** Starts `RUNS` workflows at once; each latency is from its start call to its result. */
async function burst(start: () => Promise<WorkflowHandle>): Promise<Batch> {
  const t0 = performance.now();
  const latencies = await Promise.all(
    Array.from({ length: RUNS }, async () => {
      const began = performance.now();
      const handle = await start();
      await handle.result();
      return performance.now() - began;
    }),
  );
  return { runsPerSecond: RUNS / ((performance.now() - t0) / 1000), latencies };
}

async function measure(env: BenchEnv, options: Partial<WorkerOptions>, log: (line: string) => void) {
  const record = await storePlan(env, chainShape(NODES), 'bench: throughput');
  return env.withWorker(async (taskQueue) => {
    const executor = () => burst(() => startPlanRun({ client: env.client, taskQueue, record }));
    const baseline = () =>
      burst(() => env.client.workflow.start('sequentialOpsBaselineWorkflow', { taskQueue, workflowId: uid('tp'), args: [{ op: 'noop', count: NODES }] }));
    const runs: { executor: Batch[]; baseline: Batch[] } = { executor: [], baseline: [] };
    for (let rep = 0; rep < REPETITIONS; rep++) {
      // Alternate which side goes first; each batch drains before the next starts.
      for (const side of rep % 2 === 0 ? (['executor', 'baseline'] as const) : (['baseline', 'executor'] as const)) {
        const batch = await (side === 'executor' ? executor() : baseline());
        log(`${side}: ${round(batch.runsPerSecond)} runs/s, p50 ${round(percentile(batch.latencies, 50))} ms, p95 ${round(percentile(batch.latencies, 95))} ms`);
        runs[side].push(batch);
      }
    }
    return runs;
  }, options);
}

export const throughput: Scenario = {
  name: 'throughput',
  title: `Throughput (${RUNS} concurrent runs of a ${NODES}-node plan)`,
  method:
    `${RUNS} runs of a ${NODES}-node \`noop\` chain are started at once and awaited; runs/s = ${RUNS} / (last result − first start), ` +
    `latency = each run's start call to its result (client side). The baseline is the same burst of hand-written workflows awaiting ` +
    `${NODES} \`noop\` activities, on the same worker. ${REPETITIONS} alternating batches per side; medians. Worker options: ` +
    `\`${JSON.stringify(THROUGHPUT_WORKER_OPTIONS)}\` (see bench/scenarios/throughput.ts for why).`,
  async run(env, log) {
    const runs = await measure(env, THROUGHPUT_WORKER_OPTIONS, log);
    const rate = (batches: Batch[]) => median(batches.map((b) => b.runsPerSecond));
    const all = (batches: Batch[]) => batches.flatMap((b) => b.latencies);
    return {
      figures: [
        { label: 'executor runs/s (median batch)', value: round(rate(runs.executor), 1), unit: 'runs/s', target: { op: '>=', value: 50 } },
        { label: 'executor latency p50', value: round(percentile(all(runs.executor), 50)), unit: 'ms' },
        { label: 'executor latency p95', value: round(percentile(all(runs.executor), 95)), unit: 'ms' },
        { label: 'baseline runs/s (median batch)', value: round(rate(runs.baseline), 1), unit: 'runs/s' },
        { label: 'executor / baseline throughput', value: round(rate(runs.executor) / rate(runs.baseline)) },
      ],
      notes: [],
    };
  },
};
