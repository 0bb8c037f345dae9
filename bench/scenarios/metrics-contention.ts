/**
 * Scenario 7: metrics under contention. 200 runs of one plan finish together, a quarter of them
 * failing; the plan's counters must come out exact. Beside it, the same 200 runs spread over 200
 * plans (no shared counter row) show what the contention costs.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import type { MemoryRecord } from '../../src/domain/records';
import { startPlanRun } from '../../src/runs/start-run';
import type { BenchEnv } from '../lib/environment';
import { storePlan, type Shape } from '../lib/plans';
import type { Scenario } from '../lib/scenario';
import { BURST_WORKER_OPTIONS } from '../lib/worker-options';

const RUNS = 200;
const FAILING = 50;
/** Long enough that every run has started before the first one finishes. */
const HOLD_MS = 1500;

/**
 * Every run sleeps, then sleeps `inputs.ms`: 0 for a run that succeeds, -1 for one that fails
 * (the sleep op rejects negative params, a non-retryable node failure), so all finish together.
 */
const SHAPE: Shape = {
  nodes: [
    { id: 'hold', op: 'sleep', params: { ms: HOLD_MS } },
    { id: 'outcome', op: 'sleep', params: { ms: '{{inputs.ms}}' } },
  ],
  edges: [{ from: 'hold', to: 'outcome', kind: 'control' }],
};

/** Starts every run at once; resolves when all have ended, with the wall time. */
async function runAll(env: BenchEnv, taskQueue: string, planFor: (i: number) => MemoryRecord): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: RUNS }, async (_, i) => {
      const handle = await startPlanRun({ client: env.client, taskQueue, record: planFor(i), inputs: { ms: i < FAILING ? -1 : 0 } });
      await handle.result().catch((err: unknown) => {
        if (!(err instanceof WorkflowFailedError) || i >= FAILING) throw err;
      });
    }),
  );
  return performance.now() - t0;
}

export const metricsContention: Scenario = {
  name: 'contention',
  title: `Metrics contention (${RUNS} runs of one plan finishing together)`,
  method:
    `${RUNS} runs of one 2-node plan start at once; each sleeps ${HOLD_MS} ms so all are running before any finishes, then ` +
    `${FAILING} of them fail their second node. Every run's outcome is counted by the worker's outcome sink into the same plan_stats ` +
    `row. Checked: execution_count = ${RUNS} and failure_rate = ${FAILING}/${RUNS} exactly, ${RUNS} closed run rows. Beside it, ` +
    `the same ${RUNS} runs over ${RUNS} separate plans (no shared row); ratio = one plan / separate plans.`,
  analysis:
    'Counts are exact because only the statement that closes a run row counts the run, and the counters are incremented in ' +
    'place (`successes = successes + n`), never read-modify-written by a client. Outcomes that reach a worker while its close ' +
    'statement is in flight go together in the next one (group commit, src/store/group-commit.ts), which updates the plan\'s ' +
    'counter row once for all of them instead of queueing each on its lock; the ratio prices what contention remains. One pass ' +
    'per side keeps the count check exact, so the ratio is a single sample and as noisy as the machine.',
  async run(env, log) {
    const shared = await storePlan(env, SHAPE, 'bench: contended plan');
    const separate = await Promise.all(Array.from({ length: RUNS }, () => storePlan(env, SHAPE, 'bench: uncontended plan')));
    return env.withWorker(async (taskQueue) => {
      // Separate plans first, then the shared one: a single pass each keeps the count check exact.
      const separateMs = await runAll(env, taskQueue, (i) => separate[i]!);
      const sharedMs = await runAll(env, taskQueue, () => shared);
      log(`one plan ${Math.round(sharedMs)} ms; ${RUNS} plans ${Math.round(separateMs)} ms`);
      const stored = await env.records.get(shared.id);
      if (stored?.payload.kind !== 'plan_graph') throw new Error('shared plan vanished');
      const { execution_count, failure_rate } = stored.payload.metrics;
      const closed = await env.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM plan_runs WHERE plan_id = ${shared.id} AND finished_at IS NOT NULL`);
      return {
        figures: [
          { label: 'execution_count', value: execution_count, target: { op: '==', value: RUNS } },
          { label: 'failure_rate', value: failure_rate, target: { op: '==', value: FAILING / RUNS } },
          { label: 'closed run rows', value: Number(closed.rows[0]?.n ?? 0), target: { op: '==', value: RUNS } },
          { label: `time for ${RUNS} runs of one plan`, value: Math.round(sharedMs), unit: 'ms' },
          { label: `time for ${RUNS} runs of ${RUNS} plans`, value: Math.round(separateMs), unit: 'ms' },
          { label: 'one plan / separate plans', value: Math.round((sharedMs / separateMs) * 1000) / 1000 },
        ],
        notes: [],
      };
    }, BURST_WORKER_OPTIONS);
  },
};
