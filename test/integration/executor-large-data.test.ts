/**
 * Runs whose node outputs together outgrow Temporal's limits, on a real Temporal dev server and
 * Postgres: the status and result leave out the largest outputs (src/domain/payload-size.ts) while
 * the data still flows whole, a node whose input is too large fails alone, and nodes wait rather
 * than overfill a workflow task (workflows/task-budget.ts).
 */
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { REPLAY_OUTCOME_SINKS } from '../../src/runs/outcome-sink';
import { createRunNodeReader } from '../../src/intents/run-node';
import { createRunViewer } from '../../src/intents/run-view';
import { createRecordStore } from '../../src/store/records';
import { createRunStore } from '../../src/store/plan-runs';
import { startPlanRun } from '../../src/runs/start-run';
import { jsonBytes, STATUS_ERROR_MESSAGE_BYTES, STATUS_LIMIT_BYTES } from '../../src/domain/payload-size';
import { NODE_ERROR_TYPES, statusQuery, type RunStatus } from '../../src/domain/run-state';
import { CHUNK_TASK_BUDGET_PATCH } from '../../workflows/map-items';
import { LOCAL_RESERVE_PATCH } from '../../workflows/task-budget';
import { byId, failureType, intervals, maxOverlap, metricsOf, patchesOf, settle } from './executor-helpers';
import { uid, useWorkerContext } from './harness';
import { storePlan, type PlanSpec } from './plans';

const ctx = useWorkerContext();
const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });
const AS_ACTIVITY = { execution: 'activity' as const };

async function runPlan(spec: PlanSpec) {
  const record = await storePlan(ctx.db, { intent: uid('large'), ...spec });
  const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
  return { record, handle, ...(await settle(handle)) };
}

/** `count` local nodes each returning 900 KB: five finishing in one task would be 4.5 MB of markers. */
const largeLocalBlobs = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `n${i}`, op: 'blob', params: { bytes: 900_000 }, policy: { execution: 'local' as const } }));

function expectAllLocalSucceeded(status: RunStatus, error: unknown) {
  expect(error).toBeUndefined();
  expect(status.nodes.every((n) => n.state === 'succeeded' && n.execution === 'local')).toBe(true);
}

describe('runs with large outputs', () => {
  it('reports the largest outputs by size when all would outgrow the payload limit, and passes them whole', async () => {
    // Three 800 KB outputs (each under NODE_OUTPUT_LIMIT_BYTES) are 2.4 MB together: over Temporal's 2 MB.
    const { record, handle, status, error } = await runPlan({
      nodes: [
        { id: 'a', op: 'blob', params: { bytes: 800_000 }, policy: AS_ACTIVITY },
        { id: 'b', op: 'blob', params: { bytes: 800_000 }, policy: AS_ACTIVITY },
        { id: 'c', op: 'blob', params: { bytes: 700_000 }, policy: AS_ACTIVITY },
        { id: 'sink', op: 'blob', params: { bytes: 10 }, policy: AS_ACTIVITY },
        { id: 'reads_a', op: 'echo', params: { head: '{{nodes.a.output.node}}' }, policy: AS_ACTIVITY },
        { id: 'reads_c', op: 'echo', params: { head: '{{nodes.c.output.node}}' }, policy: AS_ACTIVITY },
      ],
      edges: [data('a', 'sink'), data('c', 'sink'), data('a', 'reads_a'), data('c', 'reads_c')],
    });
    expect(error).toBeUndefined();
    expect(status.state).toBe('succeeded');
    const nodes = byId(status);
    // Largest first, ties in node order, until the rest fits: a and b are left out, c and sink are not.
    expect(nodes.a).toMatchObject({ state: 'succeeded', output_omitted: { bytes: expect.any(Number) } });
    expect(nodes.a!.output).toBeUndefined();
    expect(nodes.b!.output_omitted!.bytes).toBeGreaterThan(800_000);
    expect(nodes.c!.output_omitted).toBeUndefined();
    expect((nodes.c!.output as { text: string }).text).toHaveLength(700_000);
    // The data edges carried every output whole.
    const received = (nodes.sink!.output as { received: Record<string, number> }).received;
    expect(received).toEqual({ a: nodes.a!.output_omitted!.bytes, c: JSON.stringify(nodes.c!.output).length });
    expect(JSON.stringify(status).length).toBeLessThanOrEqual(STATUS_LIMIT_BYTES);
    // The query answers the same, and the run is counted once as succeeded.
    expect(byId(await handle.query(statusQuery)).a!.output_omitted).toEqual(nodes.a!.output_omitted);
    // A node's resolved params need the outputs its params read: a's was left out, so they are unknown (null), never {}.
    const records = createRecordStore(ctx.db);
    const viewer = createRunViewer({ config: ctx.config, client: ctx.client, records, runs: createRunStore(ctx.db) });
    const reader = createRunNodeReader({ client: ctx.client, viewer, records });
    const trust = { max_sensitivity: 'high' as const, authenticated: true };
    expect((await reader.node(handle.workflowId, 'reads_a', trust)).resolved_params).toBeNull();
    expect((await reader.node(handle.workflowId, 'reads_c', trust)).resolved_params).toEqual({ head: 'c' });
    expect((await reader.node(handle.workflowId, 'sink', trust)).resolved_params).toEqual({ bytes: 10 });
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 0 });
  });

  it('reports a run whose failed nodes carry more message than the status can hold, cutting the longest', async () => {
    // 300 nodes failing with 9,000-byte messages: cut to 8 KB each by the worker, still 2.5 MB together.
    const nodes = Array.from({ length: 300 }, (_, i) => ({ id: `f${String(i).padStart(3, '0')}`, op: 'fail', params: { type: 'verbose', message: 'x', repeat: 9_000 }, policy: AS_ACTIVITY }));
    const { record, status, error } = await runPlan({ nodes, constraints: { failure_policy: 'continue' } });
    expect(failureType(error)).toBe(NODE_ERROR_TYPES.runFailed);
    expect(status.nodes.map((n) => n.state)).toEqual(nodes.map(() => 'failed'));
    expect(jsonBytes(status)).toBeLessThanOrEqual(STATUS_LIMIT_BYTES);
    const messages = status.nodes.map((n) => n.error!.message);
    const cut = messages.filter((m) => Buffer.byteLength(m) <= STATUS_ERROR_MESSAGE_BYTES);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(300);
    for (const m of cut) expect(m).toMatch(/^x+ … \[truncated: \d+ bytes in all\]$/);
    expect(messages.filter((m) => Buffer.byteLength(m) > STATUS_ERROR_MESSAGE_BYTES).every((m) => m.endsWith('[truncated: 9000 bytes in all]'))).toBe(true);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 1 });
  });

  it('fails a node whose data inputs are over the payload limit instead of losing the run', async () => {
    // 2.3 MB of data inputs: scheduled, Temporal would terminate the run at that command.
    const { record, status, error } = await runPlan({
      nodes: [
        { id: 'a', op: 'blob', params: { bytes: 800_000 }, policy: AS_ACTIVITY },
        { id: 'b', op: 'blob', params: { bytes: 800_000 }, policy: AS_ACTIVITY },
        { id: 'c', op: 'blob', params: { bytes: 700_000 }, policy: AS_ACTIVITY },
        { id: 'all', op: 'blob', params: { bytes: 10 }, policy: AS_ACTIVITY },
      ],
      edges: [data('a', 'all'), data('b', 'all'), data('c', 'all')],
    });
    expect(failureType(error)).toBe(NODE_ERROR_TYPES.inputTooLarge);
    expect(status.state).toBe('failed');
    const all = byId(status).all!;
    expect(all).toMatchObject({ state: 'failed', attempts: 0, error: { type: NODE_ERROR_TYPES.inputTooLarge } });
    expect(all.error!.message).toMatch(/node "all" \(blob\): its resolved params and data inputs are \d+ bytes; an activity's input may be at most 2000000/);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 1 });
  });

  /** Workflow tasks the executor ended early (task-budget.ts), once the history is seen to replay. */
  async function taskBreaks(handle: WorkflowHandle) {
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, sinks: REPLAY_OUTCOME_SINKS }, history, handle.workflowId);
    return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'endWorkflowTask').length;
  }

  it('schedules a large output fanned out to activities over several workflow tasks', async () => {
    // Six 900 KB inputs are 5.4 MB in one task's completion: over gRPC's 4 MB, the task could never be reported.
    const readers = Array.from({ length: 6 }, (_, i) => ({ id: `read${i}`, op: 'blob', params: { bytes: 0 }, policy: AS_ACTIVITY }));
    const { handle, status, error } = await runPlan({
      nodes: [{ id: 'doc', op: 'blob', params: { bytes: 900_000 }, policy: AS_ACTIVITY }, ...readers],
      edges: readers.map((r) => data('doc', r.id)),
    });
    expect(error).toBeUndefined();
    const nodes = byId(status);
    for (const r of readers) expect((nodes[r.id]!.output as { received: Record<string, number> }).received.doc).toBeGreaterThan(900_000);
    // One reader per task: each further one would pass the 1.5 MB budget.
    expect(await taskBreaks(handle)).toBe(5);
  });

  it('ends a workflow task with an activity id of its own, never a node’s such as "13", which may be pending then', async () => {
    // Ten sleeping nodes "10"…"19" take sequence numbers 1–10, two 700 KB inputs 11 and 12; the boundary
    // before the third was activity 13 by the SDK's default id, while node "13" was pending: Temporal
    // refused it and the run stalled (executor_version 7 names it $task-boundary-1).
    const numbered = Array.from({ length: 10 }, (_, i) => ({ id: String(10 + i), op: 'sleep', params: { ms: 3_000 }, policy: AS_ACTIVITY }));
    const padded = ['pa', 'pb', 'pc'].map((id) => ({ id, op: 'sleep', params: { ms: 0, pad: '{{inputs.blob}}' }, policy: AS_ACTIVITY }));
    const record = await storePlan(ctx.db, { intent: uid('numbered'), nodes: [...numbered, ...padded] });
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, inputs: { blob: 'x'.repeat(700_000) } });
    const { status, error } = await settle(handle);
    expect(error).toBeUndefined();
    expect(status.nodes.every((n) => n.state === 'succeeded')).toBe(true);
    expect(await taskBreaks(handle)).toBe(1);
    const boundaries = (await handle.fetchHistory()).events!.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'endWorkflowTask' ? [scheduled.activityId] : [];
    });
    expect(boundaries).toEqual(['$task-boundary-1']);
  }, 60_000);

  it('reports a chain of large local outputs over several workflow tasks', async () => {
    // Five 900 KB local outputs finishing in one task would be 4.5 MB of markers in its completion.
    const nodes = largeLocalBlobs(5);
    const { handle, status, error } = await runPlan({ nodes, edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id, kind: 'control' as const })) });
    expectAllLocalSucceeded(status, error);
    // Two outputs fill the budget; the third waits for the next task, and so on.
    expect(await taskBreaks(handle)).toBe(2);
  });

  it('reports local nodes side by side with large outputs over several workflow tasks', async () => {
    // Five 900 KB local outputs finishing together would be 4.5 MB of markers in one completion:
    // the run stalled there before each local node held a guess of its output (executor_version 6).
    const nodes = largeLocalBlobs(5);
    const { handle, status, error } = await runPlan({ nodes, edges: [] });
    expectAllLocalSucceeded(status, error);
    // The first runs alone (its op's output unseen); then two 900 KB outputs fill a task.
    expect(await taskBreaks(handle)).toBe(2);
  });

  it('runs cheap local nodes side by side once their op has given a small output', async () => {
    const nodes = Array.from({ length: 20 }, (_, i) => ({ id: `n${i}`, op: 'timed', params: { ms: 300 }, policy: { execution: 'local' as const } }));
    const { handle, status, error } = await runPlan({ nodes, edges: [] });
    expect(error).toBeUndefined();
    // After the first (unseen op, run alone), the other 19 ran together: far less than 20 × 300 ms.
    expect(maxOverlap(Object.values(intervals(status)))).toBeGreaterThanOrEqual(10);
    expect(await taskBreaks(handle)).toBe(0);
  });

  it('reports the local items of a map with large outputs over several workflow tasks', async () => {
    // Five 900 KB outputs of a map's local items finishing together: the same 4.5 MB completion.
    const { handle, status, error } = await runPlan({
      nodes: [
        { id: 'sizes', op: 'echo', params: { list: [900_000, 900_000, 900_000, 900_000, 900_000] } },
        { id: 'docs', op: 'blob', for_each: '{{nodes.sizes.output.list}}', params: { bytes: '{{item}}' }, policy: { execution: 'local' as const } },
      ],
      edges: [data('sizes', 'docs')],
    });
    expect(error).toBeUndefined();
    expect(byId(status).docs!.items).toEqual({ total: 5, succeeded: 5, failed: 0, failed_indexes: [] });
    expect(await taskBreaks(handle)).toBe(2);
  });

  it("fails only the items whose outputs do not fit a map chunk's result, with output_too_large", async () => {
    // 1,001 items run as a chunk of 1,000 and one of 1: 1,000 outputs of ~2.6 KB are ~2.6 MB, over
    // Temporal's 2 MB for the chunk's result.
    const { status, error } = await runPlan({
      constraints: { failure_policy: 'continue' },
      nodes: [
        { id: 'sizes', op: 'echo', params: { list: Array.from({ length: 1001 }, () => 2_500) } },
        { id: 'docs', op: 'blob', for_each: '{{nodes.sizes.output.list}}', params: { bytes: '{{item}}' }, policy: AS_ACTIVITY },
      ],
      edges: [data('sizes', 'docs')],
    });
    expect(failureType(error)).toBe('plan_run_failed');
    const docs = byId(status).docs!;
    expect(docs.state).toBe('failed');
    expect(docs.items!.total).toBe(1001);
    expect(docs.items!.succeeded).toBeGreaterThan(700);
    expect(docs.items!.succeeded + docs.items!.failed).toBe(1001);
    expect(docs.error).toMatchObject({ type: NODE_ERROR_TYPES.mapItemsFailed });
    expect(docs.error!.message).toContain('output_too_large');
  }, 120_000);

  it('reports the local items of a map chunk with large outputs over several workflow tasks', async () => {
    // 1,000 local outputs of 4 KB finishing together were one ~4.5 MB completion: the chunk stalled.
    const { handle, status, error } = await runPlan({
      constraints: { failure_policy: 'continue' },
      nodes: [
        { id: 'sizes', op: 'echo', params: { list: Array.from({ length: 1001 }, () => 4_000) } },
        { id: 'docs', op: 'blob', for_each: '{{nodes.sizes.output.list}}', params: { bytes: '{{item}}' }, policy: { execution: 'local' as const } },
      ],
      edges: [data('sizes', 'docs')],
    });
    expect(failureType(error)).toBe('plan_run_failed');
    const docs = byId(status).docs!;
    // The chunk returns what fits its result: ~1.9 MB of the 4 MB of outputs, the rest output_too_large.
    expect(docs.items!.succeeded).toBeGreaterThan(400);
    expect(docs.items!.succeeded + docs.items!.failed).toBe(1001);
    expect(docs.error!.message).toContain('output_too_large');
    const chunk = ctx.client.workflow.getHandle(`${handle.workflowId}/docs[0-999]`);
    expect(patchesOf(await chunk.fetchHistory())).toEqual([CHUNK_TASK_BUDGET_PATCH]);
    // Its history takes the new waits, behind the patch, and replays.
    expect(await taskBreaks(chunk)).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('reports local nodes side by side with large outputs in each partition of a partitioned run', async () => {
    const nodes = largeLocalBlobs(10);
    const record = await storePlan(ctx.db, { intent: uid('large'), nodes, edges: [] });
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, partitionNodes: 5 });
    const { status, error } = await settle(handle);
    expect(error).toBeUndefined();
    expect(status.partitioned?.node_states).toBe('s'.repeat(10));
    // The last partition's history: its five nodes over three tasks, behind the patch, and it replays.
    expect(await taskBreaks(handle)).toBe(2);
    expect(patchesOf(await handle.fetchHistory())).toContain(LOCAL_RESERVE_PATCH);
  });

  it('runs a chain of 10,000 local nodes in one history, reporting every few thousand markers', async () => {
    // Kept in one history (as a plan with a map, sub-plan or approval node is): 10,000 markers of
    // ~410 bytes in one task were 4.1 MB, which no worker could report.
    const nodes = Array.from({ length: 10_000 }, (_, i) => ({ id: `n${i}`, op: 'noop' }));
    const record = await storePlan(ctx.db, { intent: uid('large'), nodes, edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id, kind: 'control' as const })) });
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, partitionNodes: 20_000 });
    const { status } = await settle(handle);
    expect(status.state).toBe('succeeded');
    expect(status.nodes).toHaveLength(10_000);
    expect(await taskBreaks(handle)).toBe(3);
  }, 240_000);
});
