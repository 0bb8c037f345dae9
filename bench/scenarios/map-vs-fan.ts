/**
 * Scenario: a map node of N items against a plain fan-out of the same N nodes, as local nodes
 * (the op's default) and as activities: does each complete, how long it takes, and how many
 * history events it costs (a map past 1,000 items runs in chunk child workflows of 1,000).
 * BENCH_MAP_ITEMS sets N (default 10,000) for a quick try.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { startPlanRun } from '../../src/runs/start-run';
import type { BenchEnv } from '../lib/environment';
import { profileHistory } from '../lib/history';
import { AS_ACTIVITIES, fanShape, storePlan, type Shape } from '../lib/plans';
import type { Figure, Scenario } from '../lib/scenario';
import { BURST_WORKER_OPTIONS } from '../lib/worker-options';
import { outcomeOf } from './plan-size';

const ITEMS = Number(process.env.BENCH_MAP_ITEMS ?? 10_000);

/** source → one map node over the run inputs' list → sink. */
function mapShape(policy?: Record<string, unknown>): Shape {
  return {
    nodes: [
      { id: 'a-source', op: 'noop' },
      { id: 'm-each', op: 'noop', params: { i: '{{index}}' }, for_each: '{{inputs.list}}', ...(policy ? { policy } : {}) },
      { id: 'z-sink', op: 'noop' },
    ],
    edges: [
      { from: 'a-source', to: 'm-each', kind: 'control' },
      { from: 'm-each', to: 'z-sink', kind: 'control' },
    ],
  };
}

interface Attempt {
  variant: string;
  outcome: string;
  seconds: number;
  /** Events of the plan's own workflow, and of it and its chunk children together. */
  events: number;
  totalEvents: number;
  children: number;
}

/** The plan's history and those of the child workflows it started. */
async function historyCost(env: BenchEnv, handle: WorkflowHandle) {
  const own = await handle.fetchHistory();
  const childIds = (own.events ?? []).flatMap((e) => (e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ? [e.startChildWorkflowExecutionInitiatedEventAttributes.workflowId] : []));
  let total = own.events?.length ?? 0;
  for (const id of childIds) total += (await profileHistory(env.client.workflow.getHandle(id))).events;
  return { events: own.events?.length ?? 0, totalEvents: total, children: childIds.length };
}

async function attempt(env: BenchEnv, taskQueue: string, variant: string, shape: Shape, inputs?: Record<string, unknown>): Promise<Attempt> {
  const record = await storePlan(env, shape, `bench: ${variant}`);
  const t0 = performance.now();
  let outcome: string;
  let handle: WorkflowHandle | undefined;
  try {
    handle = await startPlanRun({ client: env.client, taskQueue, record, inputs });
    outcome = await outcomeOf(handle);
  } catch (err) {
    outcome = `not started: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  const cost = handle ? await historyCost(env, handle) : { events: 0, totalEvents: 0, children: 0 };
  return { variant, outcome, seconds, ...cost };
}

export const mapVsFan: Scenario = {
  name: 'map',
  title: `Map node of ${ITEMS.toLocaleString('en-US')} items vs a fan-out of the same nodes`,
  method:
    `The same ${ITEMS.toLocaleString('en-US')} \`noop\` calls as one map node (\`for_each: "{{inputs.list}}"\` between a source and a sink) and as a ` +
    `plain fan-out (source → ${ITEMS.toLocaleString('en-US')} parallel nodes → sink), each as local nodes (the op's default) and as activities ` +
    '(`policy.execution: "activity"`), one run each, time-boxed as in the plan-size scenario. Reported: outcome, wall time, events of the ' +
    "plan's own workflow and of it plus its chunk child workflows (a map past 1,000 items runs its items in children of 1,000).",
  analysis:
    "A map keeps the plan's own history small whatever the number of items: its items run in chunk child workflows of 1,000, " +
    'each well inside the 51,200-event limit. A fan-out of more than PLAN_PARTITION_NODES nodes runs partitioned instead ' +
    '(continue-as-new per 2,000 nodes), so its "own" events are those of its last partition run, not of the whole run. ' +
    "Chunks run one after another (together they respect the plan's max_parallelism), so a map pays one " +
    'child start and finish per 1,000 items on top of the items themselves.',
  async run(env, log) {
    const list = Array.from({ length: ITEMS }, (_, i) => i);
    const attempts: Attempt[] = [];
    await env.withWorker(async (taskQueue) => {
      const variants: Array<[string, Shape, Record<string, unknown> | undefined]> = [
        ['map, local', mapShape(), { list }],
        ['fan-out, local', fanShape(ITEMS, { op: 'noop' }), undefined],
        ['map, activities', mapShape(AS_ACTIVITIES), { list }],
        ['fan-out, activities', fanShape(ITEMS, { op: 'noop', policy: AS_ACTIVITIES }), undefined],
      ];
      for (const [variant, shape, inputs] of variants) {
        const a = await attempt(env, taskQueue, variant, shape, inputs);
        log(`${variant}: ${a.outcome} in ${a.seconds} s; ${a.events} events (${a.totalEvents} with ${a.children} children)`);
        attempts.push(a);
      }
    }, BURST_WORKER_OPTIONS);
    const figures: Figure[] = attempts.flatMap((a) => [
      { label: `${a.variant}: outcome`, value: a.outcome },
      { label: `${a.variant}: wall time`, value: a.seconds, unit: 's' },
      { label: `${a.variant}: history events (own / with children)`, value: `${a.events} / ${a.totalEvents}` },
    ]);
    return { figures, notes: attempts.map((a) => `${a.variant}: ${a.outcome}, ${a.seconds} s, ${a.events} events in the plan's workflow, ${a.totalEvents} with its ${a.children} child workflows`) };
  },
};
