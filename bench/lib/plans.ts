/**
 * Plan shapes the scenarios run, and the two ways of timing a workflow: server-side duration
 * (history start to close, free of client latency) and client-side end to end.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { planGraphPayloadSchema, type MemoryRecord, type PlanEdge, type PlanGraphPayloadInput } from '../../src/domain/records';
import type { RunStatus } from '../../src/domain/run-state';
import { startPlanRun } from '../../src/runs/start-run';
import type { BenchEnv } from './environment';
import { uid } from './environment';

export interface NodeSpec {
  id: string;
  op: string;
  params?: Record<string, unknown>;
  /** The node policy, e.g. `{ execution: 'activity' }` to compare with hand-written activities. */
  policy?: Record<string, unknown>;
  /** Makes the node a map over the referenced list. */
  for_each?: string;
}

/** Makes every node of a shape run as a Temporal activity, like the hand-written baselines. */
export const AS_ACTIVITIES = { execution: 'activity' } as const;

export interface Shape {
  nodes: NodeSpec[];
  edges: PlanEdge[];
}

const control = (from: string, to: string): PlanEdge => ({ from, to, kind: 'control' });

/** Node ids sort in creation order (the executor breaks ties by topological rank, then id). */
const nodeId = (prefix: string, i: number) => `${prefix}${String(i).padStart(5, '0')}`;

/** n nodes in a line: n1 → n2 → … */
export function chainShape(n: number, op = 'noop', params: Record<string, unknown> = {}, policy?: Record<string, unknown>): Shape {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: nodeId('n', i + 1), op, params, ...(policy ? { policy } : {}) }));
  return { nodes, edges: nodes.slice(1).map((node, i) => control(nodes[i]!.id, node.id)) };
}

/** source → width parallel nodes → sink. */
export function fanShape(width: number, middle: Omit<NodeSpec, 'id'>, ends: Omit<NodeSpec, 'id'> = { op: 'noop' }): Shape {
  const source = { id: 'a-source', ...ends };
  const sink = { id: 'z-sink', ...ends };
  const mids = Array.from({ length: width }, (_, i) => ({ id: nodeId('m', i + 1), ...middle }));
  return {
    nodes: [source, ...mids, sink],
    edges: mids.flatMap((m) => [control(source.id, m.id), control(m.id, sink.id)]),
  };
}

/** source → parallel branches (each a chain of sleeps of the given lengths) → sink. */
export function branchesShape(branches: readonly (readonly number[])[]): Shape {
  const nodes: NodeSpec[] = [{ id: 'a-source', op: 'noop' }, { id: 'z-sink', op: 'noop' }];
  const edges: PlanEdge[] = [];
  branches.forEach((sleeps, b) => {
    let previous = 'a-source';
    sleeps.forEach((ms, i) => {
      const id = `b${b + 1}-${i + 1}`;
      nodes.push({ id, op: 'sleep', params: { ms } });
      edges.push(control(previous, id));
      previous = id;
    });
    edges.push(control(previous, 'z-sink'));
  });
  return { nodes, edges };
}

/**
 * Stores a shape as an active plan graph record (embedded by the hash embedder). The intent gets
 * the plan id appended: active plans with the same intent and structure are one plan (dedup).
 */
export async function storePlan(env: BenchEnv, shape: Shape, intent: string, constraints: Record<string, unknown> = {}): Promise<MemoryRecord> {
  const planId = uid('bench-plan');
  const payload = planGraphPayloadSchema.parse({
    kind: 'plan_graph',
    plan_id: planId,
    intent: `${intent} (${planId})`,
    nodes: shape.nodes,
    edges: shape.edges,
    constraints,
  } satisfies PlanGraphPayloadInput);
  return env.records.create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
}

/** Milliseconds between a closed workflow's start and close, as the server recorded them. */
export async function serverDuration(handle: WorkflowHandle): Promise<number> {
  const description = await handle.describe();
  if (!description.closeTime) throw new Error(`workflow ${handle.workflowId} is still open`);
  return description.closeTime.getTime() - description.startTime.getTime();
}

export interface TimedRun {
  handle: WorkflowHandle;
  /** Server-side duration. */
  ms: number;
}

/** Runs a stored plan through the executor to success and times it. */
export async function timePlanRun(env: BenchEnv, taskQueue: string, record: MemoryRecord, inputs?: Record<string, unknown>): Promise<TimedRun> {
  const handle = await startPlanRun({ client: env.starter, taskQueue, record, inputs, opener: env.opener });
  const result: RunStatus = await handle.result();
  if (result.state !== 'succeeded') throw new Error(`run of ${record.id} ended ${result.state}`);
  return { handle, ms: await serverDuration(handle) };
}

/** Runs a bench workflow by name to completion and times it; started eagerly, as runs are. */
export async function timeWorkflow(env: BenchEnv, taskQueue: string, workflowType: string, args: unknown[]): Promise<TimedRun> {
  const handle = await env.starter.workflow.start(workflowType, { taskQueue, workflowId: uid(workflowType), args, requestEagerStart: true });
  await handle.result();
  return { handle, ms: await serverDuration(handle) };
}
