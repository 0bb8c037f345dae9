/**
 * Hand-written baselines the benchmarks compare the plan executor with. Bench-only: bundled
 * beside the real workflows for the bench worker, never registered by the plangraph worker.
 * They call the same op activities with the same options the executor uses by default, so the
 * difference measured is the executor's interpretation and bookkeeping, nothing else.
 */
import { proxyActivities, proxyLocalActivities, proxySinks, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { createRunActivities } from '../../activities/run-activities';
import { indexGraph } from '../../src/domain/graph-index';
import type { PlanGraphPayload } from '../../src/domain/records';
import type { NodeActivityInput, NodeActivityResult, RunOutcomeSinks } from '../../src/domain/run-state';

type OpActivity = (input: NodeActivityInput) => Promise<NodeActivityResult>;
type RunActivities = ReturnType<typeof createRunActivities>;

// The executor's run bookkeeping, done as the executor does it (workflows/plan-executor.ts): a run
// no starter opened opens its row with a local activity; the outcome goes to the worker's sink.
const { beginRun } = proxyLocalActivities<RunActivities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } });
const { runOutcome } = proxySinks<RunOutcomeSinks>();

/** The executor's defaults for a node without a policy (workflows/plan-executor.ts). */
function nodeOptions(nodeId: string, op = '', labelled = false): ActivityOptions {
  return {
    activityId: nodeId,
    ...(labelled ? { summary: `${op} · ${nodeId}` } : {}),
    startToCloseTimeout: '5m',
    retry: { maximumAttempts: 3, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
  };
}

function callOp(op: string, nodeId: string, params: Record<string, unknown>, labelled = false): Promise<NodeActivityResult> {
  const activity = proxyActivities(nodeOptions(nodeId, op, labelled))[op] as OpActivity;
  return activity({ node_id: nodeId, params, inputs: {} });
}

export interface SequentialBaselineInput {
  op: string;
  count: number;
  params?: Record<string, unknown>;
  /** Also open and close a run row for this plan record, exactly as the executor does. */
  bookkeepingFor?: string;
  /** The starter opened the run row, as `startPlanRun` does: the workflow only records the outcome. */
  openedByStarter?: boolean;
  /** Label each activity as the executor does (`op · node id`, its summary in the Temporal UI). */
  labelled?: boolean;
}

/**
 * Calls one op `count` times in sequence: the fastest a chain can run on Temporal. With
 * `bookkeepingFor` it adds the executor's two bookkeeping calls and nothing else, which splits
 * the executor's overhead into bookkeeping and interpretation.
 */
export async function sequentialOpsBaselineWorkflow(input: SequentialBaselineInput): Promise<number> {
  const info = workflowInfo();
  const run = { plan_record_id: input.bookkeepingFor ?? '', plan_revision: 1, workflow_id: info.workflowId, run_id: info.runId, started_at: info.runStartTime.toISOString() };
  if (input.bookkeepingFor && !input.openedByStarter) await beginRun({ ...run, inputs_schema: {}, inputs: {}, ops: [input.op] });
  for (let i = 1; i <= input.count; i++) await callOp(input.op, `n${String(i).padStart(3, '0')}`, input.params ?? {}, input.labelled);
  if (input.bookkeepingFor) {
    const finishedAt = new Date();
    runOutcome.record({ ...run, status: 'succeeded', finished_at: finishedAt.toISOString(), latency_ms: finishedAt.getTime() - info.runStartTime.getTime() });
  }
  return input.count;
}

export interface FanOutBaselineInput {
  /** Op of the source and the sink. */
  ends: string;
  /** Op and params of each of the `width` parallel nodes. */
  op: string;
  params?: Record<string, unknown>;
  width: number;
  /** Label each activity as the executor does (`op · node id`, its summary in the Temporal UI). */
  labelled?: boolean;
}

/**
 * source → `width` parallel calls awaited with Promise.all → sink: how fast Temporal runs a
 * fan-out written by hand, with the activity ids the executor would give the same plan.
 */
export async function fanOutBaselineWorkflow(input: FanOutBaselineInput): Promise<number> {
  await callOp(input.ends, 'a-source', {}, input.labelled);
  await Promise.all(Array.from({ length: input.width }, (_, i) => callOp(input.op, `m${String(i + 1).padStart(5, '0')}`, input.params ?? {}, input.labelled)));
  await callOp(input.ends, 'z-sink', {}, input.labelled);
  return input.width;
}

/**
 * Runs a plan level by level: a node's level is its longest distance from a source, and level
 * k+1 starts only when every node of level k has finished (a barrier per level). No guards,
 * templates or data inputs: the shape of the schedule is the only thing it models.
 */
export async function levelSynchronousBaselineWorkflow(input: { plan: PlanGraphPayload }): Promise<number> {
  const index = indexGraph(input.plan.nodes, input.plan.edges);
  const level = new Map<string, number>();
  const levelOf = (id: string): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    const preds = index.preds.get(id)!;
    const value = Math.max(-1, ...[...preds.data, ...preds.control].map(levelOf)) + 1;
    level.set(id, value);
    return value;
  };
  const levels: string[][] = [];
  for (const id of index.nodeIds) (levels[levelOf(id)] ??= []).push(id);
  const nodes = new Map(input.plan.nodes.map((n) => [n.id, n]));
  for (const ids of levels) {
    await Promise.all(ids.map((id) => callOp(nodes.get(id)!.op, id, nodes.get(id)!.params)));
  }
  return levels.length;
}
