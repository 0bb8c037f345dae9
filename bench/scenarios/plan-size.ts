/**
 * Scenario 8: how large a plan the executor completes. Chains and fans of 1,000 / 5,000 /
 * 10,000 `noop` nodes, each time-boxed; for each: done or not, history length, and why not.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { startPlanRun } from '../../src/runs/start-run';
import type { BenchEnv } from '../lib/environment';
import { profileHistory } from '../lib/history';
import { chainShape, fanShape, storePlan, type Shape } from '../lib/plans';
import type { Figure, Scenario } from '../lib/scenario';
import { BURST_WORKER_OPTIONS } from '../lib/worker-options';

const SIZES = [1_000, 5_000, 10_000] as const;
/** Per attempt; a run still going after this is terminated and reported as such. */
const TIME_BOX_MS = 120_000;
/** Temporal's defaults: the history is cut off at 51,200 events and 50 MB; 2,000 pending activities. */
const HISTORY_EVENT_LIMIT = 51_200;

const SHAPES: Record<string, (n: number) => Shape> = {
  chain: (n) => chainShape(n),
  // Source and sink plus n-2 parallel nodes; the executor caps parallelism at 1,000.
  fan: (n) => fanShape(n - 2, { op: 'noop' }),
};

interface Attempt {
  shape: string;
  nodes: number;
  outcome: string;
  seconds: number;
  events: number;
  workflowTasks: number;
  completedNodes: number;
}

async function outcomeOf(handle: WorkflowHandle): Promise<string> {
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), TIME_BOX_MS).unref());
  try {
    const result = await Promise.race([handle.result(), timer]);
    if (result !== 'timeout') return 'completed';
    await handle.terminate('bench time box');
    return `not finished in ${TIME_BOX_MS / 1000} s (terminated)`;
  } catch (err) {
    if (err instanceof WorkflowFailedError) return `failed: ${err.cause?.message ?? err.message}`;
    throw err;
  }
}

async function attempt(env: BenchEnv, taskQueue: string, shape: string, nodes: number): Promise<Attempt> {
  const record = await storePlan(env, SHAPES[shape]!(nodes), `bench: ${shape} of ${nodes}`);
  const t0 = performance.now();
  let outcome: string;
  let handle: WorkflowHandle | undefined;
  try {
    handle = await startPlanRun({ client: env.client, taskQueue, record });
    outcome = await outcomeOf(handle);
  } catch (err) {
    outcome = `not started: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  const h = handle ? await profileHistory(handle) : { events: 0, workflowTasks: 0, completedActivities: 0 };
  return { shape, nodes, outcome, seconds, events: h.events, workflowTasks: h.workflowTasks, completedNodes: h.completedActivities };
}

export const planSize: Scenario = {
  name: 'plan-size',
  title: 'Plan size limits',
  method:
    `Chains (n1 → n2 → …) and fans (source → n−2 parallel nodes → sink) of ${SIZES.join(' / ')} \`noop\` nodes, one run each, ` +
    `time-boxed at ${TIME_BOX_MS / 1000} s. Larger sizes of a shape are skipped once a smaller one failed, and not run when the events per node measured at the smaller size already put them over the history limit. Temporal's defaults bound a ` +
    `workflow at ${HISTORY_EVENT_LIMIT.toLocaleString('en-US')} history events (and 50 MB) and 2,000 pending activities; the executor caps ` +
    'parallelism at 1,000 and each node costs about 3 events (scheduled, started, completed) plus its share of workflow-task events.',
  async run(env, log) {
    const attempts: Attempt[] = [];
    await env.withWorker(async (taskQueue) => {
      for (const shape of Object.keys(SHAPES)) {
        for (const nodes of SIZES) {
          const previous = attempts.at(-1);
          const predicted = previous?.shape === shape ? Math.round((previous.events / previous.nodes) * nodes) : 0;
          if (predicted > HISTORY_EVENT_LIMIT) {
            // Each node of this shape costs a fixed number of events: the limit is arithmetic.
            const outcome = `not run: ${predicted.toLocaleString('en-US')} events predicted (${(previous!.events / previous!.nodes).toFixed(2)}/node measured at ${previous!.nodes}) > ${HISTORY_EVENT_LIMIT.toLocaleString('en-US')}`;
            log(`${shape} ${nodes}: ${outcome}`);
            attempts.push({ shape, nodes, outcome, seconds: 0, events: predicted, workflowTasks: 0, completedNodes: 0 });
            break;
          }
          const a = await attempt(env, taskQueue, shape, nodes);
          log(`${shape} ${nodes}: ${a.outcome} in ${a.seconds} s, ${a.events} events, ${a.workflowTasks} workflow tasks`);
          attempts.push(a);
          if (a.outcome !== 'completed') break;
        }
      }
    }, BURST_WORKER_OPTIONS);
    const figures: Figure[] = [];
    for (const shape of Object.keys(SHAPES)) {
      const done = attempts.filter((a) => a.shape === shape && a.outcome === 'completed');
      figures.push({ label: `largest ${shape} completed`, value: done.length > 0 ? Math.max(...done.map((a) => a.nodes)) : 0, unit: 'nodes' });
    }
    for (const a of attempts) {
      figures.push({ label: `${a.shape} of ${a.nodes.toLocaleString('en-US')}`, value: `${a.outcome}; ${a.seconds} s; ${a.events.toLocaleString('en-US')} events` });
    }
    return {
      figures,
      notes: attempts.map(
        (a) => `${a.shape} of ${a.nodes}: ${a.outcome} after ${a.seconds} s; ${a.completedNodes} nodes completed; history ${a.events} events (${(a.events / a.nodes).toFixed(2)} per node), ${a.workflowTasks} workflow tasks.`,
      ),
    };
  },
};
