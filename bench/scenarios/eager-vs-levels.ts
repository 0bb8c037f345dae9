/**
 * Scenario 3: readiness scheduling vs level-by-level. Two branches of unequal step lengths: the
 * executor starts each node when its own predecessors finish; a level-synchronous scheduler
 * waits for the slowest node of every level.
 */
import { branchesShape, storePlan, timePlanRun, timeWorkflow } from '../lib/plans';
import type { Scenario } from '../lib/scenario';
import { interleave, median, pairRatios, round } from '../lib/stats';

/** Branch A is slow first, branch B slow last: every level holds one slow node. */
const BRANCHES = [
  [400, 100, 100, 100],
  [100, 100, 100, 400],
] as const;
const REPETITIONS = 5;

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const IDEAL_EAGER_MS = Math.max(...BRANCHES.map(sum));
const IDEAL_LEVELS_MS = BRANCHES[0].reduce((total, _, i) => total + Math.max(...BRANCHES.map((b) => b[i] ?? 0)), 0);

export const eagerVsLevels: Scenario = {
  name: 'eager',
  title: 'Eager vs level-by-level scheduling',
  method:
    `Plan: source → two branches of sleeps → sink, branch A = ${BRANCHES[0].join(' → ')} ms, branch B = ${BRANCHES[1].join(' → ')} ms. ` +
    'The executor starts a node as soon as its own predecessors are done, so its critical path is the longer branch ' +
    `(${IDEAL_EAGER_MS} ms of sleep). The baseline \`levelSynchronousBaselineWorkflow\` (bench/workflows/baselines.ts, bench only) runs the same ` +
    `plan one level at a time with a barrier per level, so each level costs its slowest node (${IDEAL_LEVELS_MS} ms of sleep). ` +
    `${REPETITIONS} rotating pairs; ratio = executor / level-synchronous.`,
  analysis:
    'Readiness scheduling wins by the difference in critical paths: the executor starts branch B\'s 400 ms node while branch ' +
    'A\'s short nodes are still running; the level-synchronous schedule waits for the slowest node of every level. The measured ' +
    'ratio sits above the sleep-only ideal because both share fixed per-step overheads (dispatch, workflow tasks) and only ' +
    'the executor pays for run bookkeeping.',
  async run(env, log) {
    const shape = branchesShape(BRANCHES);
    const record = await storePlan(env, shape, 'bench: unequal branches');
    if (record.payload.kind !== 'plan_graph') throw new Error('stored record is not a plan');
    const plan = record.payload;
    return env.withWorker(async (taskQueue) => {
      const eager = async () => (await timePlanRun(env, taskQueue, record)).ms;
      const levels = async () => (await timeWorkflow(env, taskQueue, 'levelSynchronousBaselineWorkflow', [{ plan }])).ms;
      await eager();
      await levels();
      const [e, l] = await interleave(REPETITIONS, [eager, levels]);
      log(`eager ${e!.join(' ')} ms; level-synchronous ${l!.join(' ')} ms`);
      return {
        figures: [
          { label: 'executor (eager) run (median)', value: round(median(e!)), unit: 'ms' },
          { label: 'level-synchronous run (median)', value: round(median(l!)), unit: 'ms' },
          { label: 'eager / level-synchronous', value: round(median(pairRatios(e!, l!))) },
          { label: 'ideal ratio (sleep time only)', value: round(IDEAL_EAGER_MS / IDEAL_LEVELS_MS) },
        ],
        notes: [],
      };
    });
  },
};
