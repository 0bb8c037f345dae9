/**
 * Scenario 4: throughput. 200 runs of a 5-node plan started at once: runs per second and end-to-
 * end latency, beside the same load of hand-written 5-activity workflows on the same worker.
 */
import { availableParallelism } from 'node:os';
import type { WorkflowHandle } from '@temporalio/client';
import { startPlanRun } from '../../src/runs/start-run';
import { cpuNow, cpuSince } from '../lib/cpu';
import { uid, type BenchEnv } from '../lib/environment';
import { AS_ACTIVITIES, chainShape, storePlan } from '../lib/plans';
import { BURST_WORKER_OPTIONS } from '../lib/worker-options';
import type { Scenario } from '../lib/scenario';
import { median, medianInterval, pairRatios, percentile, round } from '../lib/stats';

const RUNS = 200;
const NODES = 5;
// Pairs of 200-run bursts spread by ±10–20% on a shared machine: 21 pairs narrow the interval of
// their median to about what 11 gave when pairs spread half as much.
const REPETITIONS = 21;

interface Batch {
  runsPerSecond: number;
  latencies: number[];
  /** CPU ms per run: bench process (worker + client), dev server and Postgres. */
  cpuPerRun: { bench: number; server: number; postgres: number };
}

/** Starts `RUNS` workflows at once; each latency is from its start call to its result. */
async function burst(serverPid: number, start: () => Promise<WorkflowHandle>): Promise<Batch> {
  const cpu = cpuNow(serverPid);
  const t0 = performance.now();
  const latencies = await Promise.all(
    Array.from({ length: RUNS }, async () => {
      const began = performance.now();
      const handle = await start();
      await handle.result();
      return performance.now() - began;
    }),
  );
  const wall = performance.now() - t0;
  const used = cpuSince(cpu, serverPid);
  return { runsPerSecond: RUNS / (wall / 1000), latencies, cpuPerRun: { bench: used.benchMs / RUNS, server: used.serverMs / RUNS, postgres: used.postgresMs / RUNS } };
}

const SIDES = ['executor', 'baseline', 'bookkept'] as const;
type Side = (typeof SIDES)[number];
const SIDE_LABELS: Record<Side, string> = { executor: 'executor', baseline: 'baseline', bookkept: 'baseline + bookkeeping' };

async function measure(env: BenchEnv, log: (line: string) => void) {
  const record = await storePlan(env, chainShape(NODES, 'noop', {}, AS_ACTIVITIES), 'bench: throughput');
  return env.withWorker(async (taskQueue) => {
    const baselineRun = (bookkeeping: boolean) => async () => {
      const args = [{ op: 'noop', count: NODES, ...(bookkeeping ? { bookkeepingFor: record.id, openedByStarter: true } : {}) }];
      const handle = await env.client.workflow.start('sequentialOpsBaselineWorkflow', { taskQueue, workflowId: uid('tp'), args });
      // As startPlanRun does: the starter opens the run row right after the start.
      if (bookkeeping) {
        await env.opener.runs.openRun({ plan_record_id: record.id, plan_revision: record.revision, workflow_id: handle.workflowId, run_id: handle.firstExecutionRunId, started_at: new Date().toISOString() });
      }
      return handle;
    };
    const starts: Record<Side, () => Promise<WorkflowHandle>> = {
      executor: () => startPlanRun({ client: env.client, taskQueue, record, opener: env.opener }),
      baseline: baselineRun(false),
      bookkept: baselineRun(true),
    };
    const runs: Record<Side, Batch[]> = { executor: [], baseline: [], bookkept: [] };
    // One uncounted batch per side first: the first burst on a fresh worker also pays for warming
    // up (JIT of the workflow bundle, connection pools), and it fell on whichever side went first.
    for (const side of SIDES) {
      const batch = await burst(env.serverPid, starts[side]);
      log(`warm-up ${side}: ${round(batch.runsPerSecond)} runs/s (not counted)`);
    }
    for (let rep = 0; rep < REPETITIONS; rep++) {
      // Rotate which side goes first; each batch drains before the next starts.
      for (let k = 0; k < SIDES.length; k++) {
        const side = SIDES[(rep + k) % SIDES.length]!;
        const batch = await burst(env.serverPid, starts[side]);
        log(
          `${side}: ${round(batch.runsPerSecond)} runs/s, p50 ${round(percentile(batch.latencies, 50))} ms, p95 ${round(percentile(batch.latencies, 95))} ms, ` +
            `CPU/run ${round(batch.cpuPerRun.bench)} ms bench + ${round(batch.cpuPerRun.server)} ms server + ${round(batch.cpuPerRun.postgres, 2)} ms Postgres`,
        );
        runs[side].push(batch);
      }
    }
    return runs;
  }, BURST_WORKER_OPTIONS);
}

export const throughput: Scenario = {
  name: 'throughput',
  title: `Throughput (${RUNS} concurrent runs of a ${NODES}-node plan)`,
  method:
    `${RUNS} runs of a ${NODES}-node \`noop\` chain (every node a Temporal activity, \`policy.execution: "activity"\`) are started at once and awaited; runs/s = ${RUNS} / (last result − first start), ` +
    `latency = each run's start call to its result (client side). The baseline is the same burst of hand-written workflows awaiting ` +
    `${NODES} \`noop\` activities, on the same worker; "baseline + bookkeeping" is that workflow plus only the executor\'s run bookkeeping, done ` +
    'the way the executor\'s starter and worker do it (the starter opens the run row after the start, the worker\'s outcome sink ' +
    `closes it and counts the run after the final activation), which splits the executor's cost into bookkeeping and interpretation. One uncounted warm-up batch per side, then ${REPETITIONS} repetitions of one batch per side back to back, ` +
    'rotating which goes first. The throughput ratio is the median of the per-repetition ratios (as in the interpretation scenario): the ' +
    'shared machine drifts by tens of percent between repetitions (CPU per run of the same batch ranged 70–120 ms in one run), and a pair ' +
    'taken back to back sees the same phase; the ratio of the two median rates is shown beside it. Worker options: ' +
    `\`${JSON.stringify(BURST_WORKER_OPTIONS)}\` (see bench/lib/worker-options.ts for why).`,
  analysis:
    'The burst is CPU-bound, and mostly not by the executor: a run of the hand-written 5-activity baseline costs ~75 ms of CPU ' +
    'on a quiet day (bench process and dev server together, read from /proc per batch; 115–180 ms on 2026-11-25, when the shared ' +
    'machine ran about half as fast), two thirds of it in the dev server, so two idle cores could not run even the baseline at ' +
    'much more than 25 runs/s. What the executor adds has been cut three times: the workflow code imports no zod (the SDK evaluates ' +
    'the bundle\'s modules in every workflow\'s sandbox: ~12 ms per run, paid by both sides here since they share the bundle), runs ' +
    'record their outcome through the worker\'s sink instead of a local activity (35 events per run, as many as the hand-written ' +
    'workflow), and version 3 runs wait for their nodes on one promise the scheduler resolves, a chain without a nodes\' scope: the ' +
    'SDK captures a stack trace for every promise workflow code creates, and a run now creates as many as the hand-written one ' +
    '(a replay of the history: 25 = 25, 37 before; ~3 ms of CPU less per replay). The two bookkeeping statements are prepared ' +
    'once per connection (Postgres CPU 1.05 → 0.55 ms per run), and Postgres\'s CPU is reported per side: about 1 ms per run for the ' +
    'executor and the bookkept baseline, none for the bare one — the database is not where a run\'s cost goes. Most of the gap ' +
    'measured until 2026-11-25 (0.85–0.91 of the bare baseline in every series of paired batches) was not the executor\'s own: a ' +
    'profile of the dev server (perf at 499 Hz, one side per process) found its history queues spending ~7 ms of CPU per run ' +
    'splitting their slices on the executor\'s side and ~0.2 ms on the bookkept side. The dev server\'s one history shard keeps each ' +
    'task it loads in its queue\'s tracker, done or not, until the queue checkpoints every 30 s; at 20–25 runs/s that comes near ' +
    '9,000 tasks, where the queue splits its slices to shed load and then walks every tracked task for each new batch of tasks — a ' +
    'threshold the slightly heavier side crossed first and paid for in full. The dev servers plangraph starts now checkpoint every ' +
    'second (src/temporal/dev-server.ts), and the ratio rose from 0.855 to 0.93–0.94 in two runs on 2026-11-26 (median rates ' +
    '0.876 → 0.94–0.965). Since then the run rows are written by group commit (src/store/group-commit.ts: calls made while a ' +
    'statement is in flight share the next; in this burst runs open and close at the server\'s pace, so it merges little: 2,000 ' +
    'calls took 1,648 statements) and the outcome sink\'s wait no longer builds an AbortError per run. Five runs of this scenario ' +
    'on 2026-11-26 gave paired medians of 0.931–0.993 and median-rate ratios of 0.939–0.965: about 0.95, at the goal\'s edge. ' +
    'A perf profile of the dev server then showed it reading search attributes from SQLite on every request, history read and ' +
    'visibility record that touches one (the CLI turns that cache off so that attributes added at run time show at once): ~1.8% of its ' +
    'samples on the executor\'s side, whose runs carry `PlanId` and `PlanIntent`, 1.5% on the bare side, plus namespace reads ' +
    'under one global lock. plangraph\'s attributes exist from the start, so its dev servers now keep the cache ' +
    '(src/temporal/dev-server.ts). Four runs since, on a slow day (~110 ms of CPU per run), gave paired medians of 0.978, ' +
    '0.945, 0.917 and 0.928 (the last in a whole `npm run bench`) and median-rate ratios of 0.947, 0.999, 0.910 and 0.920; ' +
    'a run on 2026-11-26 when a run cost ~75 ms gave 0.982 and 0.96: about 0.95 over the five, at the goal\'s edge ' +
    'rather than clearly past it. About 3 points of what is missing are the run\'s visibility, not its interpretation: the ' +
    'same executor started without its search attributes, memo and static summary, in bursts alternating with these, reached ' +
    '0.941 and 1.013 of the bare baseline where the executor as shipped reached 0.914 and 0.970 (two runs of 11 pairs), because ' +
    'the history service rewrites a run\'s execution info, which carries its search attributes and memo, on every state ' +
    'transition (a perf profile of the dev server: `WorkflowExecutionInfoToBlob` 324 samples against 181 for 1,200 runs, most ' +
    'of the executor\'s 2.7% more server samples with the larger start event, result and scheduled events). They are how a run ' +
    'is found and read in the Temporal UI, so they stay. Since 2026-11-26 the servers plangraph starts execute activities ' +
    'eagerly (src/temporal/dev-server.ts: the worker that schedules an activity gets it back in the reply, with no trip through ' +
    'matching and no second write). In two A/B runs in one bench environment (two dev servers, one with it and one without, ' +
    '200-run bursts alternating, 7 and 11 pairs) it raised the executor\'s throughput by 23% and 17% and the bare baseline\'s by ' +
    '21% and 35%, and the paired ratio went from 0.976 and 1.024 without it to 0.938 and 0.918 with it: it takes the same per-' +
    'activity work off both sides, and what the executor adds per run then weighs more. In the whole bench run with it ' +
    '(2026-11-26, on an Intel Xeon machine) the executor used 6.3 ms more CPU per run than the bare baseline (3.2 ms in the bench ' +
    'process, 3.2 ms in the dev server, of ~72 ms), against 1.4 ms in the last whole run without it (another machine). Eager dispatch ' +
    'applies to both alike (every activity of 40 sampled runs per side started within 0.05 ms of its scheduling, in bursts of ' +
    '20 and 200), so the excess is per run, not per activity; why it grew is not yet found. Eager execution stays on: it makes every run faster, hand-written or not. ' +
    'Before it, the dev server\'s CPU per run came out the same on both sides in two of the four slow-day runs (77.4 ' +
    'against 78.6 ms, 72.0 against 73.8 ms) and 5–6 ms higher on the executor\'s side in the other two, so what the cache ' +
    'changed in the ratio is within the machine\'s noise, and so is the executor\'s excess itself: 2 to 12 ms per run over ' +
    'the bare baseline in those runs, bookkeeping alone −4 to +6 ms. What is left in every run is in the bench process: 2.3–6.5 ms of ~37 ms per run, ' +
    'which per-thread CPU (/proc/self/task) splits into the workflow thread (+0.9 ms: the interpreter; the SDK itself spends ' +
    '~10 ms per run there on both sides, much of it capturing a stack trace for every promise), V8\'s GC threads (+0.7 ms) and ' +
    'the main thread (+0.8 ms: the larger start request and result, the two bookkeeping statements). Pairs spread by ±10–20% ' +
    '(0.74–1.09 within one run; 0.71–1.20 in one on 2026-11-26 whose 11 pairs gave 0.963, interval 0.873–1.075), so the ' +
    'scenario takes 21 pairs since then; the interval of their median is printed beside it. Two whole bench runs on that ' +
    'machine (AMD EPYC) with 21 pairs gave 0.955 (interval 0.925–1.004) and 0.917 (0.851–0.968): about 0.93, at the goal\'s ' +
    'edge and not reliably past it. Much of that spread was the dev server\'s: with Temporal\'s default of four partitions per ' +
    'task queue, in about half the bursts a few runs\' tasks waited 0.9–2.0 s in a partition none of the worker\'s pollers was ' +
    'waiting on, so a burst\'s length turned on its slowest few runs. The dev servers plangraph starts give each task queue one ' +
    'partition since then (src/temporal/dev-server.ts): the slowest run of a burst ends within ~60 ms of the 95th percentile, both ' +
    'sides run ~16% more runs/s, and the interval narrowed. On a second AMD EPYC machine that day the ratio came out 0.916 ' +
    '(0.907–0.95) with the scenario alone and 0.956 (0.934–0.972) and 0.934 (0.902–0.944) in two whole bench runs, the executor ' +
    'using 41.1 against 37.5, 42.9 against 40.8 and 51.5 against 49.4 ms of CPU per run: 1.1–1.8 ms more in the bench process ' +
    'and 0.8–2.1 ms more in the dev server. That is the executor\'s cost over bare Temporal code, about 0.93 in throughput, ' +
    'short of the goal; half of it is the search attributes, memo and summaries that make a run findable in the Temporal UI. ' +
    'What the executor adds: a ' +
    'history of 8.1 KB against 4.9 KB per run (the start event 1.8 KB against 0.25 KB: the whole plan; the result 1.2 KB against ' +
    '0.06 KB: every node\'s status; ~100 bytes more per scheduled activity: its summary and non-retryable error types), search ' +
    'attributes and memo, and the starter\'s and the sink\'s two statements (~1 ms of Postgres CPU per run). A profile of the worker\'s workflow thread puts ~0.8 ms per run in the executor\'s own ' +
    'code, with as many calls into the workflow sandbox as the hand-written workflow (21 per run on both sides). ' +
    'A batch that shows well under 1 run/s waited 5 minutes on one activity task that a worker took and never completed (the ' +
    'start-to-close timeout of the hand-written and the executor nodes alike); it happens on both sides when the machine is ' +
    'overloaded. 50 runs/s on 2 cores needs ≤ 40 ms of CPU per run — about half what bare Temporal cost on 2026-11-25\'s machines, and ' +
    'about what it costs on the faster one of 2026-11-26 (38–41 ms; 45–47 runs/s, the executor 40–42) — so the target is out of ' +
    'reach on 2 shared cores for plangraph and hand-written Temporal code alike. The worker options above remove queueing in ' +
    'the worker (more workflow-task slots and pollers, a cache larger than the burst so nothing is replayed); they cannot remove CPU work.',
  async run(env, log) {
    const runs = await measure(env, log);
    const rates = (batches: Batch[]) => batches.map((b) => b.runsPerSecond);
    const rate = (batches: Batch[]) => median(rates(batches));
    const all = (batches: Batch[]) => batches.flatMap((b) => b.latencies);
    const cpu = (batches: Batch[]) => median(batches.map((b) => b.cpuPerRun.bench + b.cpuPerRun.server));
    const cores = availableParallelism();
    const ratios = pairRatios(rates(runs.executor), rates(runs.baseline));
    const interval = medianInterval(ratios);
    const confidence = `${Math.floor(interval.coverage * 100)}%`;
    return {
      figures: [
        { label: 'executor runs/s (median batch)', value: round(rate(runs.executor), 1), unit: 'runs/s', target: { op: '>=', value: 50 } },
        { label: 'executor latency p50', value: round(percentile(all(runs.executor), 50)), unit: 'ms' },
        { label: 'executor latency p95', value: round(percentile(all(runs.executor), 95)), unit: 'ms' },
        { label: 'baseline runs/s (median batch)', value: round(rate(runs.baseline), 1), unit: 'runs/s' },
        { label: 'executor / baseline throughput', value: round(median(ratios)), target: { op: '>=', value: 0.95 } },
        { label: `executor / baseline throughput: ${confidence} interval of the median, low end`, value: round(interval.low) },
        { label: `executor / baseline throughput: ${confidence} interval of the median, high end`, value: round(interval.high) },
        { label: 'executor / baseline throughput (ratio of median rates)', value: round(rate(runs.executor) / rate(runs.baseline)) },
        { label: 'executor / (baseline + bookkeeping) throughput', value: round(median(pairRatios(rates(runs.executor), rates(runs.bookkept)))) },
        { label: '(baseline + bookkeeping) / baseline throughput', value: round(median(pairRatios(rates(runs.bookkept), rates(runs.baseline)))) },
        { label: 'executor CPU per run (worker + server)', value: round(cpu(runs.executor), 1), unit: 'ms' },
        { label: 'baseline CPU per run (worker + server)', value: round(cpu(runs.baseline), 1), unit: 'ms' },
        { label: 'baseline + bookkeeping CPU per run (worker + server)', value: round(cpu(runs.bookkept), 1), unit: 'ms' },
        ...SIDES.map((side) => ({ label: `${SIDE_LABELS[side]} Postgres CPU per run`, value: round(median(runs[side].map((b) => b.cpuPerRun.postgres)), 2), unit: 'ms' })),
        { label: `CPU-bound ceiling on ${cores} idle cores`, value: round((cores * 1000) / cpu(runs.executor), 1), unit: 'runs/s' },
      ],
      notes: [
        ...SIDES.map((side) => `${side}: ${runs[side].map((b) => round(b.runsPerSecond, 1)).join(', ')} runs/s by repetition.`),
        ...SIDES.map(
          (side) =>
            `${side} CPU per run (median): ${round(median(runs[side].map((b) => b.cpuPerRun.bench)), 1)} ms in the bench process (worker and client), ` +
            `${round(median(runs[side].map((b) => b.cpuPerRun.server)), 1)} ms in the dev server.`,
        ),
        `The ceiling divides all ${cores} cores by the executor's CPU per run: the rate this machine could reach if nothing else ran on it.`,
      ],
    };
  },
};
