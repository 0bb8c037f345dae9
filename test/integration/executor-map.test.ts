/**
 * Map nodes on a real Temporal dev server and Postgres: one activity per item with `{{item}}` and
 * `{{index}}`, outputs in order, both failure policies, a map over the run inputs, and a map of
 * 10,000 items run as chunked child workflows.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { statusQuery } from '../../src/domain/run-state';
import { startPlanRun } from '../../src/runs/start-run';
import { byId, failureType, metricsOf, settle, summariesOf, until } from './executor-helpers';
import { uid, useWorkerContext } from './harness';
import { storePlan, type PlanSpec } from './plans';

const ctx = useWorkerContext();

const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });
async function start(spec: PlanSpec, inputs?: Record<string, unknown>) {
  const record = await storePlan(ctx.db, { intent: uid('map'), ...spec });
  return { record, handle: await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, inputs }) };
}

/** 1,000 numbers with a string at index 500: `add` refuses it (invalid_params, not retried). */
const numbersWithOneBad = () => Array.from({ length: 1000 }, (_, i) => (i === 500 ? 'not a number' : i));

/** A producer, a map adding each item to its index, a node after it and one beside it. */
function mapPlan(failurePolicy: 'fail_fast' | 'continue'): PlanSpec {
  return {
    constraints: { failure_policy: failurePolicy, max_parallelism: 50 },
    nodes: [
      { id: 'list', op: 'echo', params: { items: numbersWithOneBad() } },
      { id: 'sum', op: 'add', for_each: '{{nodes.list.output.items}}', params: { a: '{{item}}', b: '{{index}}' } },
      { id: 'after', op: 'echo', params: { got: '{{nodes.sum.output}}' } },
      { id: 'beside', op: 'timed', params: { ms: 1500 } },
    ],
    edges: [data('list', 'sum'), data('sum', 'after')],
  };
}

/** Activity ids and summaries of the activities a run scheduled. */
async function scheduled(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityId ?? ''] : []));
}

describe('map nodes', () => {
  it('fail_fast: a failing item among 1,000 fails the node and the run; other items are cancelled or never start', async () => {
    const { handle } = await start(mapPlan('fail_fast'));
    const { status, error } = await settle(handle);
    expect(status.state).toBe('failed');
    expect(failureType(error)).toBe('map_item_failed');
    const nodes = byId(status);
    expect(nodes.sum).toMatchObject({ state: 'failed', error: { type: 'map_item_failed' } });
    expect(nodes.sum!.error!.message).toMatch(/^item 500 failed: invalid_params/);
    expect(nodes.sum!.output).toBeUndefined();
    expect(nodes.sum!.items).toMatchObject({ total: 1000, failed: 1, failed_indexes: [500] });
    expect(nodes.sum!.items!.succeeded).toBeLessThan(1000);
    expect(nodes.after!.state).toMatch(/cancelled|skipped/);
    const ids = await scheduled(handle);
    expect(ids).toContain('sum[0]');
    expect(ids).toContain('sum[500]');
    // Nothing past the failure's in-flight window was scheduled.
    expect(ids.filter((id) => id.startsWith('sum[')).length).toBeLessThan(1000);
  }, 120_000);

  it('continue: the other 999 items finish; the node fails with null in the failed slot and lists its index', async () => {
    const { handle, record } = await start(mapPlan('continue'));
    const { status, error } = await settle(handle);
    expect(status.state).toBe('failed');
    expect(failureType(error)).toBe('plan_run_failed');
    const nodes = byId(status);
    expect(nodes.sum).toMatchObject({ state: 'failed', error: { type: 'map_items_failed' } });
    expect(nodes.sum!.error!.message).toMatch(/^1 of 1000 items failed: \[500\]; item 500: invalid_params/);
    const output = nodes.sum!.output as Array<{ sum: number } | null>;
    expect(output).toHaveLength(1000);
    expect(output[500]).toBeNull();
    expect(output[0]).toEqual({ sum: 0 });
    expect(output[999]).toEqual({ sum: 1998 });
    expect(nodes.sum!.items).toEqual({ total: 1000, succeeded: 999, failed: 1, failed_indexes: [500] });
    expect(nodes.after!.state).toBe('skipped');
    expect(nodes.beside!.state).toBe('succeeded');
    const ids = await scheduled(handle);
    expect(ids.filter((id) => id.startsWith('sum[')).length).toBe(1000);
    expect((await metricsOf(ctx.db, record.id)).execution_count).toBe(1);
  }, 120_000);

  it('maps over the run inputs with {{item.field}}; the output feeds the next node; progress shows in status', async () => {
    const list = Array.from({ length: 20 }, (_, i) => ({ a: i, b: 100 }));
    const { handle } = await start(
      {
        inputs_schema: { type: 'object', properties: { list: { type: 'array' } }, required: ['list'] },
        constraints: { max_parallelism: 4 },
        nodes: [
          { id: 'slow', op: 'timed', for_each: '{{inputs.list}}', params: { ms: 200 } },
          { id: 'sum', op: 'add', for_each: '{{inputs.list}}', params: { a: '{{item.a}}', b: '{{item.b}}' } },
          { id: 'report', op: 'echo', params: { sums: '{{nodes.sum.output}}' } },
        ],
        edges: [data('sum', 'report')],
      },
      { list },
    );
    const running = await until(() => handle.query(statusQuery), (s) => (byId(s).slow?.items?.succeeded ?? 0) > 0, 'map progress');
    expect(byId(running).slow!.items!.total).toBe(20);
    const { status } = await settle(handle);
    expect(status.state).toBe('succeeded');
    const nodes = byId(status);
    expect(nodes.sum!.output).toEqual(list.map((x) => ({ sum: x.a + 100 })));
    expect(nodes.report!.output).toMatchObject({ sums: list.map((x) => ({ sum: x.a + 100 })) });
    expect(nodes.slow!.items).toEqual({ total: 20, succeeded: 20, failed: 0, failed_indexes: [] });
  }, 60_000);

  it('cancelling the run cancels the items in flight; the map node ends cancelled', async () => {
    const { handle } = await start({
      constraints: { max_parallelism: 3 },
      nodes: [{ id: 'slow', op: 'timed', for_each: '{{inputs.list}}', params: { ms: 30_000 }, policy: { heartbeat_timeout: '2s' } }],
    }, { list: [1, 2, 3, 4, 5, 6] });
    await until(() => scheduled(handle), (ids) => ids.length === 3, 'three items scheduled');
    await handle.cancel();
    const { status } = await settle(handle);
    expect(status.state).toBe('cancelled');
    expect(byId(status).slow).toMatchObject({ state: 'cancelled', items: { total: 6, succeeded: 0, failed: 0 } });
    expect(await scheduled(handle)).toEqual(['slow[0]', 'slow[1]', 'slow[2]']);
  }, 60_000);

  it('a map of local items runs to its end when a sibling fails under fail_fast (local items are never cancelled); the run replays', async () => {
    const { handle } = await start({
      constraints: { max_parallelism: 4 },
      nodes: [
        { id: 'slow', op: 'timed', for_each: '{{inputs.list}}', params: { ms: 100 }, policy: { execution: 'local' } },
        { id: 'boom', op: 'fail', params: { type: 'boom' }, policy: { execution: 'local' } },
      ],
    }, { list: Array.from({ length: 20 }, (_, i) => i) });
    // settle queries the failed run: the worker replays its whole history to answer.
    const { status, error } = await settle(handle);
    expect(failureType(error)).toBe('boom');
    expect(byId(status).slow).toMatchObject({ state: 'succeeded', items: { total: 20, succeeded: 20, failed: 0 } });
  }, 60_000);

  it('a cancellation seen while a map of local items runs to its end starts none of the nodes after it', async () => {
    const local = { execution: 'local' } as const;
    const { handle } = await start({
      constraints: { max_parallelism: 1 },
      nodes: [
        { id: 'first', op: 'timed', for_each: '{{inputs.list}}', params: { ms: 4000 }, policy: local },
        { id: 'then', op: 'timed', for_each: '{{inputs.list}}', params: { ms: 10 }, policy: local },
      ],
      edges: [{ from: 'first', to: 'then', kind: 'control' }],
    }, { list: [1, 2, 3] });
    // Past the first workflow-task heartbeat (8 s): the cancellation reaches the run while its items run.
    await new Promise((resolve) => setTimeout(resolve, 9500));
    await handle.cancel();
    const { status } = await settle(handle);
    expect(status.state).toBe('cancelled');
    // Local items are never interrupted (the map finishes); what comes after it never starts.
    expect(byId(status).first).toMatchObject({ state: 'succeeded', items: { total: 3, succeeded: 3 } });
    expect(byId(status).then!.state).toBe('cancelled');
    // Each item's marker carries its summary (`timed · first[0]`); the run's own beginRun marker none.
    const summaries = await summariesOf(handle, (e) => Boolean(e.markerRecordedEventAttributes));
    expect(summaries.filter(Boolean)).toEqual(['timed · first[0]', 'timed · first[1]', 'timed · first[2]']);
  }, 60_000);

  it('maps side by side share one budget of 1,000 activity items in flight, inside Temporal\'s 2,000 pending activities', async () => {
    const map = (id: string) => ({ id, op: 'timed', for_each: '{{inputs.list}}', params: { ms: 1500 } });
    const { handle } = await start({ constraints: { max_parallelism: 1000 }, nodes: [map('left'), map('right')] }, { list: Array.from({ length: 600 }, (_, i) => i) });
    const { status } = await settle(handle);
    expect(status.state).toBe('succeeded');
    let pending = 0;
    let most = 0;
    for (const event of (await handle.fetchHistory()).events ?? []) {
      if (event.activityTaskScheduledEventAttributes) most = Math.max(most, ++pending);
      if (event.activityTaskCompletedEventAttributes || event.activityTaskFailedEventAttributes) pending -= 1;
    }
    // Each map alone may run 600 at once; together 1,200 without the budget.
    expect(most).toBe(1000);
    // A query of the closed run replays its whole history: the waits for the budget replay too.
    expect((await handle.query(statusQuery)).state).toBe('succeeded');
  }, 120_000);

  it('fails a map whose for_each is not an array with for_each_not_array', async () => {
    const { handle } = await start({ nodes: [{ id: 'm', op: 'echo', for_each: '{{inputs.list}}', params: {} }] }, { list: { not: 'a list' } });
    const { status } = await settle(handle);
    expect(byId(status).m).toMatchObject({ state: 'failed', error: { type: 'for_each_not_array', message: 'for_each {{inputs.list}} resolved to object, not an array' } });
  }, 30_000);

  it('chunked maps follow the failure policy too: continue fills null across chunks, fail_fast starts no further chunk', async () => {
    const list = Array.from({ length: 1500 }, (_, i) => (i === 1200 ? 'bad' : i));
    const node = { id: 'sum', op: 'add', for_each: '{{inputs.list}}', params: { a: '{{item}}', b: 1 }, policy: { execution: 'local' } };
    const cont = await start({ constraints: { failure_policy: 'continue' }, nodes: [node] }, { list });
    const continued = byId((await settle(cont.handle)).status).sum!;
    expect(continued).toMatchObject({ state: 'failed', error: { type: 'map_items_failed' }, items: { total: 1500, succeeded: 1499, failed: 1, failed_indexes: [1200] } });
    const output = continued.output as Array<{ sum: number } | null>;
    expect([output.length, output[1200], output[1199], output[1499]]).toEqual([1500, null, { sum: 1200 }, { sum: 1500 }]);

    const early = Array.from({ length: 1500 }, (_, i) => (i === 100 ? 'bad' : i));
    const fast = await start({ nodes: [node] }, { list: early });
    const { status, error } = await settle(fast.handle);
    expect(failureType(error)).toBe('map_item_failed');
    expect(byId(status).sum!.error!.message).toMatch(/^item 100 failed: invalid_params/);
    const children = (await fast.handle.fetchHistory()).events?.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes) ?? [];
    expect(children.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId)).toEqual([`${fast.handle.workflowId}/sum[0-999]`]);
    // The chunk that stopped early replays deterministically.
    const chunkId = `${fast.handle.workflowId}/sum[0-999]`;
    const chunkHistory = await ctx.client.workflow.getHandle(chunkId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, chunkHistory, chunkId);
  }, 120_000);

  it('runs a map of 10,000 cheap items as chunk child workflows of 1,000, outputs in order', async () => {
    const list = Array.from({ length: 10_000 }, (_, i) => i);
    const started = Date.now();
    const { handle } = await start({ nodes: [{ id: 'each', op: 'echo', for_each: '{{inputs.list}}', params: { i: '{{index}}', v: '{{item}}' } }] }, { list });
    const { status } = await settle(handle);
    const ms = Date.now() - started;
    expect(status.state).toBe('succeeded');
    const output = byId(status).each!.output as Array<{ i: number; v: number }>;
    expect(output).toHaveLength(10_000);
    expect(output.every((o, i) => o.i === i && o.v === i)).toBe(true);
    const children = (await handle.fetchHistory()).events?.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes) ?? [];
    expect(children.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId)).toEqual(
      Array.from({ length: 10 }, (_, k) => `${handle.workflowId}/each[${k * 1000}-${k * 1000 + 999}]`),
    );
    const chunk = ctx.client.workflow.getHandle(`${handle.workflowId}/each[9000-9999]`);
    const chunkEvents = (await chunk.fetchHistory()).events?.length ?? 0;
    expect(chunkEvents).toBeLessThan(51_200 / 4);
    console.log(`map of 10,000 local echo items: ${ms} ms; last chunk history ${chunkEvents} events`);
  }, 300_000);
});
