/**
 * Scenario: plans of any size. Chains of 10,000 and 20,000 and a fan of 50,000 `noop` activity
 * nodes run partitioned (continue-as-new per partition of PLAN_PARTITION_NODES): for each, time,
 * the number of runs, the most events any one run's history holds, and peak memory.
 */
import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { DEFAULT_PARTITION_NODES } from '../../src/domain/partitioning';
import { startPlanRun } from '../../src/runs/start-run';
import type { BenchEnv } from '../lib/environment';
import { AS_ACTIVITIES, chainShape, fanShape, storePlan, type Shape } from '../lib/plans';
import type { Figure, Scenario } from '../lib/scenario';
import { BURST_WORKER_OPTIONS } from '../lib/worker-options';

const HISTORY_EVENT_LIMIT = 51_200;
/** Per plan; a run still going after this is terminated and reported as such. */
const TIME_BOX_MS = 1_800_000;

/**
 * The fan's constraints.max_parallelism (BENCH_FAN_PARALLELISM overrides). 200, not the executor's
 * 1,000: at 1,000 the 50,000-node fan crashed the whole bench process on a loaded 2-core machine.
 */
const FAN_PARALLELISM = process.env.BENCH_FAN_PARALLELISM ? Number(process.env.BENCH_FAN_PARALLELISM) : 200;

const PLANS: Array<{ label: string; nodes: number; build: () => Shape; constraints?: Record<string, unknown> }> = [
  { label: 'chain of 10,000', nodes: 10_000, build: () => chainShape(10_000, 'noop', {}, AS_ACTIVITIES) },
  { label: 'chain of 20,000', nodes: 20_000, build: () => chainShape(20_000, 'noop', {}, AS_ACTIVITIES) },
  // Source and sink plus 49,998 parallel nodes.
  {
    label: 'fan of 50,000',
    nodes: 50_000,
    build: () => fanShape(49_998, { op: 'noop', policy: AS_ACTIVITIES }, { op: 'noop', policy: AS_ACTIVITIES }),
    constraints: { max_parallelism: FAN_PARALLELISM },
  },
];

/** BENCH_PARTITIONED=fan (or a comma list of label words) runs only the matching plans. */
const ONLY = (process.env.BENCH_PARTITIONED ?? '').split(',').map((w) => w.trim()).filter(Boolean);
const selectedPlans = () => (ONLY.length === 0 ? PLANS : PLANS.filter((p) => ONLY.some((w) => p.label.includes(w))));

interface Measured {
  label: string;
  outcome: string;
  seconds: number;
  runs: number;
  maxEvents: number;
  totalEvents: number;
  completedActivities: number;
  /** Workflow tasks the server failed or timed out (their work is redone from history). */
  failedTasks: number;
  peakRssMb: number;
  startSeconds: number;
}

/** Follows the chain of runs from the first: the events of each (continue-as-new names the next run). */
async function runHistories(client: Client, workflowId: string, firstRunId: string): Promise<Array<{ events: number; completed: number; failedTasks: number }>> {
  const out: Array<{ events: number; completed: number; failedTasks: number }> = [];
  let runId: string | undefined = firstRunId;
  while (runId) {
    const history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    out.push({
      events: events.length,
      completed: events.filter((e) => e.activityTaskCompletedEventAttributes).length,
      failedTasks: events.filter((e) => e.workflowTaskFailedEventAttributes || e.workflowTaskTimedOutEventAttributes).length,
    });
    const next: string | null | undefined = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    runId = next ?? undefined;
  }
  return out;
}

async function outcomeOf(handle: WorkflowHandle): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timed out'), TIME_BOX_MS)));
  try {
    const outcome = await Promise.race([handle.result().then(() => 'completed'), timedOut]);
    if (outcome !== 'completed') {
      await handle.terminate('bench time box');
      return `not finished in ${TIME_BOX_MS / 1000} s (terminated)`;
    }
    return outcome;
  } catch (err) {
    if (err instanceof WorkflowFailedError) return `failed: ${err.cause?.message ?? err.message}`;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function measure(env: BenchEnv, taskQueue: string, plan: (typeof PLANS)[number]): Promise<Measured> {
  const record = await storePlan(env, plan.build(), `bench: partitioned ${plan.label}`, plan.constraints);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  const t0 = performance.now();
  try {
    const handle = await startPlanRun({ client: env.client, taskQueue, record, partitionNodes: DEFAULT_PARTITION_NODES });
    const startSeconds = (performance.now() - t0) / 1000;
    const outcome = await outcomeOf(handle);
    const seconds = (performance.now() - t0) / 1000;
    const runs = await runHistories(env.client, handle.workflowId, handle.firstExecutionRunId);
    return {
      label: plan.label,
      outcome,
      seconds: Math.round(seconds * 10) / 10,
      startSeconds: Math.round(startSeconds * 10) / 10,
      runs: runs.length,
      maxEvents: Math.max(...runs.map((r) => r.events)),
      totalEvents: runs.reduce((a, r) => a + r.events, 0),
      completedActivities: runs.reduce((a, r) => a + r.completed, 0),
      failedTasks: runs.reduce((a, r) => a + r.failedTasks, 0),
      peakRssMb: Math.round(peakRss / 2 ** 20),
    };
  } finally {
    clearInterval(sampler);
  }
}

export const partitionedSize: Scenario = {
  name: 'partitioned-size',
  title: 'Plans of any size (partitioned runs)',
  method:
    `A chain of 10,000, a chain of 20,000 and a fan of 50,000 \`noop\` nodes (the fan at \`max_parallelism\` ${FAN_PARALLELISM}), all run as activities, one run each, ` +
    `partitioned into runs of ${DEFAULT_PARTITION_NODES.toLocaleString('en-US')} nodes joined by continue-as-new ` +
    `(docs/execution.md#plans-of-any-size), time-boxed at ${TIME_BOX_MS / 1000} s. Time is from the start call (which ` +
    `validates and analyses the plan) to the result; events are counted per run (Temporal's limit is ` +
    `${HISTORY_EVENT_LIMIT.toLocaleString('en-US')} per run); peak memory is the bench process's resident set (worker, client, harness).`,
  analysis:
    'Every partition is one Temporal run with its own history, so the events of one run stay bounded by the partition size ' +
    '(about 6 per chain node, 3–4 per fan node, plus the partition load and continue-as-new) whatever the plan size. ' +
    'Each partition drains before the next starts, so a fan pays one ramp-down per partition. ' +
    'Wide fans of fast nodes meet a server limit: completions that arrive while a workflow task is being processed are ' +
    'buffered, and past 100 buffered events (history.maximumBufferedEventsBatch) the server fails that workflow task ' +
    '(cause FORCE_CLOSE_COMMAND) and the worker redoes it from history — the "failed or timed out" count. With 1,000 ' +
    'noop nodes in flight that happens hundreds of times per 50,000-node fan; at 200 rarely, though more often in a whole bench ' +
    'run than alone, and more since the dev servers give each task queue one partition (perhaps because activities reach the ' +
    'worker sooner): 12–67 redone in the whole runs with one partition (92–214 s; 20 in the run above, 186 s), 7 in one with four (85 s), 0 with either when the ' +
    'fan ran alone (77 and 80 s; AMD EPYC, 2026-11-26). The fan of 50,000 at the ' +
    'default parallelism of 1,000 once crashed the worker process on a machine at load 7–15 and completed at load 3–5, ' +
    'so this scenario runs it at 200 (BENCH_FAN_PARALLELISM overrides).',
  async run(env, log) {
    const results: Measured[] = [];
    await env.withWorker(async (taskQueue) => {
      for (const plan of selectedPlans()) {
        const m = await measure(env, taskQueue, plan);
        log(`${m.label}: ${m.outcome} in ${m.seconds} s (start ${m.startSeconds} s); ${m.runs} runs, max ${m.maxEvents} events per run, ${m.completedActivities} activities; ${m.failedTasks} workflow tasks failed or timed out; peak RSS ${m.peakRssMb} MB`);
        results.push(m);
      }
    }, BURST_WORKER_OPTIONS);
    const figures: Figure[] = results.flatMap((m) => [
      { label: `${m.label}: outcome`, value: m.outcome },
      { label: `${m.label}: time`, value: m.seconds, unit: 's' },
      { label: `${m.label}: most events in one run`, value: m.maxEvents, unit: 'events' },
      { label: `${m.label}: workflow tasks failed or timed out`, value: m.failedTasks },
      { label: `${m.label}: peak memory`, value: m.peakRssMb, unit: 'MB' },
    ]);
    return {
      figures,
      notes: results.map(
        (m) =>
          `${m.label}: ${m.outcome} after ${m.seconds} s (${m.startSeconds} s of it to validate, analyse and start); ${m.runs} runs, ` +
          `${m.totalEvents} events in all, at most ${m.maxEvents} in one run; ${m.completedActivities} activities completed; ${m.failedTasks} workflow tasks failed or timed out; peak RSS ${m.peakRssMb} MB.`,
      ),
    };
  },
};
