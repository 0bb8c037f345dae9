/**
 * Scenario 8: how large a plan the executor completes. Chains and fans of 1,000 / 5,000 /
 * 10,000 `noop` activity nodes and chains of 5,000 / 10,000 / 20,000 local nodes, each time-boxed; for
 * each: done or not, history length, peak memory, and why not.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { REPLAY_OUTCOME_SINKS } from '../../src/runs/outcome-sink';
import { startPlanRun } from '../../src/runs/start-run';
import type { BenchEnv } from '../lib/environment';
import { profileHistory } from '../lib/history';
import { AS_ACTIVITIES, chainShape, fanShape, storePlan, type Shape } from '../lib/plans';
import type { Figure, Scenario } from '../lib/scenario';
import { BURST_WORKER_OPTIONS } from '../lib/worker-options';

const SIZES = [1_000, 5_000, 10_000] as const;
/** Local nodes cost one marker event each, but one workflow task carries all of a chain's markers. */
const LOCAL_SIZES = [5_000, 10_000, 20_000] as const;
/** Per attempt; a run still going after this is terminated and reported as such. */
const TIME_BOX_MS = 180_000;
/** A run whose history has not grown for this long is reported as stalled. */
const STALL_MS = 40_000;
/** Temporal's defaults: the history is cut off at 51,200 events and 50 MB; 2,000 pending activities. */
const HISTORY_EVENT_LIMIT = 51_200;

const SHAPES: Record<string, { sizes: readonly number[]; build: (n: number) => Shape }> = {
  chain: { sizes: SIZES, build: (n) => chainShape(n, 'noop', {}, AS_ACTIVITIES) },
  // Source and sink plus n-2 parallel nodes; the executor caps parallelism at 1,000.
  fan: { sizes: SIZES, build: (n) => fanShape(n - 2, { op: 'noop', policy: AS_ACTIVITIES }, { op: 'noop', policy: AS_ACTIVITIES }) },
  'local chain': { sizes: LOCAL_SIZES, build: (n) => chainShape(n) },
};

interface Attempt {
  shape: string;
  nodes: number;
  outcome: string;
  seconds: number;
  events: number;
  workflowTasks: number;
  completedNodes: number;
  /** Peak resident memory of the bench process (worker, client and harness) during the run. */
  peakRssMb?: number;
  /** Seconds a worker needs to replay the whole history (what every cache eviction costs). */
  replaySeconds?: number;
}

/** Replays a history on the bench bundle (with `plangraph replay`'s no-op outcome sink), timed: after an eviction a worker must do this within one workflow task. */
async function replaySeconds(env: BenchEnv, handle: WorkflowHandle): Promise<number> {
  const history = await handle.fetchHistory();
  const t0 = performance.now();
  await Worker.runReplayHistory({ workflowBundle: { codePath: env.bundlePath }, sinks: REPLAY_OUTCOME_SINKS }, history);
  return Math.round((performance.now() - t0) / 100) / 10;
}

/** Why the last workflow task failed, when that is where the history stopped (e.g. a completion over gRPC's size limit). */
async function lastTaskFailure(handle: WorkflowHandle): Promise<string> {
  const last = (await handle.fetchHistory()).events?.at(-1)?.workflowTaskFailedEventAttributes;
  return last ? `, after a workflow task failed: ${last.failure?.message ?? 'no message'}` : '';
}

/**
 * Waits for the run within the time box, watching its history length: a run whose history has
 * not grown for `STALL_MS` is stuck (e.g. retrying a workflow task that always times out).
 */
export async function outcomeOf(handle: WorkflowHandle): Promise<string> {
  let settled = false;
  const watchdog = async (): Promise<string> => {
    const deadline = Date.now() + TIME_BOX_MS;
    let length = 0;
    let grewAt = Date.now();
    while (!settled) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      if (settled) break;
      const now = (await handle.describe()).historyLength;
      if (now > length) [length, grewAt] = [now, Date.now()];
      if (Date.now() - grewAt > STALL_MS) return `stalled: history stuck at ${length} events for ${STALL_MS / 1000} s${await lastTaskFailure(handle)} (terminated)`;
      if (Date.now() > deadline) return `not finished in ${TIME_BOX_MS / 1000} s (terminated)`;
    }
    return 'completed';
  };
  try {
    const outcome = await Promise.race([handle.result().then(() => 'completed'), watchdog()]);
    if (outcome !== 'completed') await handle.terminate('bench time box');
    return outcome;
  } catch (err) {
    if (err instanceof WorkflowFailedError) return `failed: ${err.cause?.message ?? err.message}`;
    throw err;
  } finally {
    settled = true;
  }
}

async function attempt(env: BenchEnv, taskQueue: string, shape: string, nodes: number): Promise<Attempt> {
  const record = await storePlan(env, SHAPES[shape]!.build(nodes), `bench: ${shape} of ${nodes}`);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  const t0 = performance.now();
  let outcome: string;
  let handle: WorkflowHandle | undefined;
  try {
    // One history per run, as before partitioning: this scenario measures where that path ends.
    handle = await startPlanRun({ client: env.client, taskQueue, record, partitionNodes: Number.MAX_SAFE_INTEGER });
    outcome = await outcomeOf(handle);
  } catch (err) {
    outcome = `not started: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  clearInterval(sampler);
  const h = handle ? await profileHistory(handle) : { events: 0, workflowTasks: 0, completedActivities: 0, markers: 0 };
  const replay = handle && outcome === 'completed' ? await replaySeconds(env, handle) : undefined;
  // Local nodes complete as markers, activity nodes as completed activities.
  const completedNodes = shape.startsWith('local') ? (h.markers ?? 0) : h.completedActivities;
  return { shape, nodes, outcome, seconds, events: h.events, workflowTasks: h.workflowTasks, completedNodes, replaySeconds: replay, peakRssMb: Math.round(peakRss / 2 ** 20) };
}

export const planSize: Scenario = {
  name: 'plan-size',
  title: 'Plan size limits',
  method:
    `Chains (n1 → n2 → …) and fans (source → n−2 parallel nodes → sink) of ${SIZES.join(' / ')} \`noop\` nodes run as activities ` +
    `(\`policy.execution: "activity"\`), and chains of ${LOCAL_SIZES.join(' / ')} \`noop\` nodes run as local nodes (the op's default), one run each, ` +
    `time-boxed at ${TIME_BOX_MS / 1000} s. Larger sizes of a shape are skipped once a smaller one failed, and not run when the events per node measured at the smaller size already put them over the history limit. Temporal's defaults bound a ` +
    `workflow at ${HISTORY_EVENT_LIMIT.toLocaleString('en-US')} history events (and 50 MB) and 2,000 pending activities; the executor caps ` +
    'parallelism at 1,000 and each node costs about 3 events (scheduled, started, completed) plus its share of workflow-task events.',
  analysis:
    '**Chains** cost 6 events per node, because every node completes alone and needs its own workflow task (3 activity ' +
    'events + 3 workflow-task events): the 51,200-event limit caps a chain at ~8,500 nodes, so 10,000 cannot complete however ' +
    'long it runs, and a chain is slow besides (one round trip per node, ~20–40 ms each on this machine). **Fans** share ' +
    'workflow tasks among completions (~3.2 events per node) and would reach the event limit only at ~16,000 nodes, but they ' +
    'break earlier, on time rather than on size: every workflow task must finish within the 10 s workflow-task timeout, and ' +
    'when one does not (a large batch of completions on a busy machine, or a sticky task that waited too long), the worker ' +
    'loses the cached run and must replay the whole history in the next task. The replay time in the notes grows with the ' +
    'number of nodes; once it exceeds the timeout, every retry times out again and the run stalls with thousands of nodes done. ' +
    'While the bench was being built, under heavier load, the 10,000-node fan stalled exactly so: 8,251 nodes done, ' +
    'history stuck at ~21,650 events, every retried workflow task timing out (in the run above it completed, and replaying ' +
    'its history takes about as long as the timeout). ' +
    'The same replay applies to any run whose worker restarts or evicts it: where the notes show a replay longer than 10 s ' +
    '(a chain of 5,000 already), a run that completed did so only because its worker kept it cached throughout. ' +
    'The 2,000-pending-activity limit is never reached (the executor caps parallelism at 1,000). **Local nodes** cost one ' +
    'marker event each, and a chain of them runs inside one workflow task (1.6–5.7 ms per node on the machines measured, 2.6 ms in the run above) until the executor ends ' +
    'the task itself: every marker (~410 bytes) is sent in the task\'s completion, gRPC refuses a completion over 4 MB, and ' +
    'so the executor lets no further node start once a task holds ~1.5 MB and schedules a no-op activity to start the next ' +
    'one (docs/execution.md#workflow-task-size): a task boundary every ~3,300 local nodes, the workflow tasks in the notes. ' +
    'Before that (executor_version 5, 2026-11-27), 5,000 completed and 10,000 failed with the completion refused; now ' +
    '10,000 complete, and 20,000 fail later, at the end: the run\'s result lists every node (~190 bytes each even without ' +
    'outputs), and 3.8 MB is over Temporal\'s 2 MB per payload, which the server refuses. ' +
    'Plans of more than 2,000 nodes therefore run partitioned by default (continue-as-new per partition of 2,000 nodes, ' +
    'whose status details one partition; scenario partitioned-size), which this scenario turns off to measure the ' +
    'single-history path; plans that keep one history (map, sub-plan or approval nodes, resumed runs) stay exposed above ' +
    '~10,000 nodes.',
  async run(env, log) {
    const attempts: Attempt[] = [];
    await env.withWorker(async (taskQueue) => {
      for (const shape of Object.keys(SHAPES)) {
        let stopped: string | undefined;
        for (const nodes of SHAPES[shape]!.sizes) {
          const previous = attempts.at(-1);
          const perNode = previous?.shape === shape && previous.completedNodes > 0 ? previous.events / previous.completedNodes : 0;
          const predicted = Math.round(perNode * nodes);
          if (stopped || predicted > HISTORY_EVENT_LIMIT) {
            // Each node of a shape costs a fixed number of events: past the limit it cannot complete, however long it runs.
            const outcome =
              predicted > HISTORY_EVENT_LIMIT
                ? `not run: ${predicted.toLocaleString('en-US')} events predicted (${perNode.toFixed(2)} per node measured) > ${HISTORY_EVENT_LIMIT.toLocaleString('en-US')}`
                : `not run: ${stopped}`;
            log(`${shape} ${nodes}: ${outcome}`);
            attempts.push({ shape, nodes, outcome, seconds: 0, events: predicted, workflowTasks: 0, completedNodes: 0 });
            continue;
          }
          const a = await attempt(env, taskQueue, shape, nodes);
          log(`${shape} ${nodes}: ${a.outcome} in ${a.seconds} s, ${a.events} events, ${a.workflowTasks} workflow tasks, replay ${a.replaySeconds ?? '-'} s, peak RSS ${a.peakRssMb} MB`);
          attempts.push(a);
          if (a.outcome !== 'completed') stopped = `the ${nodes}-node ${shape} did not complete`;
        }
      }
    }, BURST_WORKER_OPTIONS);
    const figures: Figure[] = [];
    for (const shape of Object.keys(SHAPES)) {
      const done = attempts.filter((a) => a.shape === shape && a.outcome === 'completed');
      figures.push({ label: `largest ${shape} completed`, value: done.length > 0 ? Math.max(...done.map((a) => a.nodes)) : 0, unit: 'nodes' });
    }
    for (const a of attempts) {
      const detail = a.seconds === 0 ? a.outcome : `${a.outcome}; ${a.seconds} s; ${a.events.toLocaleString('en-US')} events; peak RSS ${a.peakRssMb} MB`;
      figures.push({ label: `${a.shape} of ${a.nodes.toLocaleString('en-US')}`, value: detail });
    }
    return {
      figures,
      notes: attempts.map(
        (a) =>
          a.seconds === 0
            ? `${a.shape} of ${a.nodes}: ${a.outcome}.`
            : `${a.shape} of ${a.nodes}: ${a.outcome} after ${a.seconds} s; ${a.completedNodes} activities completed; history ${a.events} events, ` +
              `${a.workflowTasks} workflow tasks${a.replaySeconds === undefined ? '' : `; replaying the whole history takes ${a.replaySeconds} s`}.`,
      ),
    };
  },
};
