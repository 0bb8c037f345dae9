/**
 * Scenario 2: parallel efficiency. 64 sleeps of 200 ms between a source and a sink should take
 * as long as one: the ideal is the critical path, measured on the same executor.
 */
import { profileHistory } from '../lib/history';
import { fanShape, storePlan, timePlanRun } from '../lib/plans';
import type { Scenario } from '../lib/scenario';
import { interleave, median, pairRatios, round } from '../lib/stats';

const WIDTH = 64;
const SLEEP_MS = 200;
const REPETITIONS = 7;

export const parallelEfficiency: Scenario = {
  name: 'parallel',
  title: `Parallel efficiency (${WIDTH} × sleep ${SLEEP_MS} ms)`,
  method:
    `A plan source → ${WIDTH} parallel \`sleep(${SLEEP_MS} ms)\` → sink vs the same executor running the plan's critical path alone, ` +
    `the 3-node chain source → sleep(${SLEEP_MS} ms) → sink. **Ideal** is the duration of that chain, not a bare ${SLEEP_MS} ms: a perfectly ` +
    'parallel run of the wide plan would cost exactly one branch plus the source, the sink and the run\'s fixed bookkeeping, all of which ' +
    'the chain measures on the same server in the same minute. Efficiency = chain / wide (1.0 = perfect), median of ' +
    `${REPETITIONS} rotating pairs.`,
  async run(env, log) {
    const wide = await storePlan(env, fanShape(WIDTH, { op: 'sleep', params: { ms: SLEEP_MS } }), 'bench: wide sleeps');
    // Width 1 is exactly the wide plan's critical path: the same source, one sleep, the same sink.
    const critical = await storePlan(env, fanShape(1, { op: 'sleep', params: { ms: SLEEP_MS } }), 'bench: critical path');
    return env.withWorker(async (taskQueue) => {
      const warm = await timePlanRun(env, taskQueue, wide);
      await timePlanRun(env, taskQueue, critical);
      const [w, c] = await interleave(REPETITIONS, [async () => (await timePlanRun(env, taskQueue, wide)).ms, async () => (await timePlanRun(env, taskQueue, critical)).ms]);
      log(`wide ${w!.join(' ')} ms; critical path ${c!.join(' ')} ms`);
      const h = await profileHistory(warm.handle);
      return {
        figures: [
          { label: 'efficiency: ideal / measured', value: round(median(pairRatios(c!, w!))), target: { op: '>=', value: 0.9 } },
          { label: 'wide run (median)', value: round(median(w!)), unit: 'ms' },
          { label: 'ideal = critical-path chain (median)', value: round(median(c!)), unit: 'ms' },
          { label: 'workflow tasks in a wide run', value: h.workflowTasks },
        ],
        notes: [`One wide run: ${h.events} events, ${h.workflowTasks} workflow tasks for ${h.activities} activities (completions arriving together share a workflow task).`],
      };
    });
  },
};
