/**
 * Partitioned runs on a real Temporal dev server and Postgres, with partitions of a few nodes so
 * each run crosses several continue-as-new boundaries quickly: every node accounted for, data
 * passed across boundaries, failure and cancellation across partitions, metrics counted once.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { DomainError } from '../../src/domain/errors';
import type { PlanGraphPayload } from '../../src/domain/records';
import { statusQuery, type PartitionedRunInput, type RunStatus } from '../../src/domain/run-state';
import { createRunNodeReader } from '../../src/intents/run-node';
import { createRunViewer } from '../../src/intents/run-view';
import { REPLAY_OUTCOME_SINKS } from '../../src/runs/outcome-sink';
import { reconcileOpenRuns } from '../../src/runs/reconcile';
import { startPlanRun } from '../../src/runs/start-run';
import { createRunStore } from '../../src/store/plan-runs';
import { createRecordStore } from '../../src/store/records';
import { failureType, metricsOf, patchesOf, runRows, settle, until } from './executor-helpers';
import { uid, useWorkerContext } from './harness';
import { storePlan, type PlanSpec } from './plans';

const ctx = useWorkerContext();

const PARTITION = 4;
const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });
const control = (from: string, to: string) => ({ from, to, kind: 'control' as const });
const id = (p: string, i: number) => `${p}${String(i).padStart(2, '0')}`;

async function start(spec: PlanSpec) {
  const record = await storePlan(ctx.db, { intent: uid('partitioned'), ...spec });
  const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, partitionNodes: PARTITION });
  return { record, handle };
}
async function runPlan(spec: PlanSpec) {
  const started = await start(spec);
  return { ...started, ...(await settle(started.handle)) };
}

/** n nodes adding 1 to their predecessor's sum: the last one's sum proves every hop carried its output. */
function addChain(n: number): PlanSpec {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: id('n', i), op: 'add', params: i === 0 ? { a: 0, b: 1 } : { a: `{{nodes.${id('n', i - 1)}.output.sum}}`, b: 1 } }));
  return { nodes, edges: nodes.slice(1).map((node, i) => data(nodes[i]!.id, node.id)) };
}

/** The workflow's runs, first to last, and the activity ids each one scheduled. */
async function runsOf(handle: WorkflowHandle) {
  const runs: Array<{ status: string; activities: string[] }> = [];
  for await (const w of ctx.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` })) {
    const history = await ctx.client.workflow.getHandle(handle.workflowId, w.runId).fetchHistory();
    const activities = (history.events ?? []).flatMap((e) => (e.activityTaskScheduledEventAttributes?.activityId ? [e.activityTaskScheduledEventAttributes.activityId] : []));
    runs.push({ status: w.status.name, activities });
  }
  return runs.reverse();
}

const countsOf = (status: RunStatus) => status.partitioned?.counts;

const TRUST = { max_sensitivity: 'low' as const, authenticated: true };

/** The run viewer and node reader the API and CLI use. */
function readers() {
  const records = createRecordStore(ctx.db);
  const viewer = createRunViewer({ config: ctx.config, client: ctx.client, records, runs: createRunStore(ctx.db) });
  return { viewer, reader: createRunNodeReader({ client: ctx.client, viewer, records }) };
}

describe('partitioned runs', () => {
  it('runs a chain across partitions: every node succeeds, outputs cross boundaries, node ids stay activity ids, counted once', async () => {
    const { handle, status, error, record } = await runPlan(addChain(10));
    expect(error).toBeUndefined();
    expect(status.state).toBe('succeeded');
    expect(status.partitioned).toMatchObject({ partitions: 3, partition_size: PARTITION, node_count: 10, node_states: 's'.repeat(10) });
    expect(countsOf(status)).toMatchObject({ succeeded: 10, pending: 0 });
    // The result details the last partition.
    expect(status.nodes.map((n) => [n.id, n.output])).toEqual([
      ['n08', { sum: 9 }],
      ['n09', { sum: 10 }],
    ]);
    const runs = await runsOf(handle);
    expect(runs.map((r) => r.status)).toEqual(['CONTINUED_AS_NEW', 'CONTINUED_AS_NEW', 'COMPLETED']);
    expect(runs.flatMap((r) => r.activities)).toEqual(Array.from({ length: 10 }, (_, i) => id('n', i)));
    expect(await runRows(ctx.db, record.id)).toEqual([expect.objectContaining({ status: 'succeeded', workflow_id: handle.workflowId })]);
    expect((await metricsOf(ctx.db, record.id)).counters).toMatchObject({ successes: 1, failures: 0 });
  });

  it('runs a fan-out whose every branch reads the source across partitions', async () => {
    const mids = Array.from({ length: 13 }, (_, i) => ({ id: id('m', i), op: 'add', params: { a: '{{nodes.a.output.sum}}', b: i } }));
    const { status } = await runPlan({
      nodes: [{ id: 'a', op: 'add', params: { a: 100, b: 0 } }, ...mids, { id: 'z', op: 'noop' }],
      edges: mids.flatMap((m) => [data('a', m.id), control(m.id, 'z')]),
    });
    expect(status.state).toBe('succeeded');
    expect(status.partitioned).toMatchObject({ partitions: 4, node_states: 's'.repeat(15) });
    expect(status.nodes.map((n) => [n.id, n.output])).toEqual([
      ['m11', { sum: 111 }],
      ['m12', { sum: 112 }],
      ['z', null],
    ]);
  });

  it('fails fast across partitions: later partitions never start, every node has a final state', async () => {
    const spec = addChain(10);
    spec.nodes[5] = { id: 'n05', op: 'fail', params: { type: 'upstream_down' } };
    const { handle, status, error, record } = await runPlan(spec);
    expect(failureType(error)).toBe('upstream_down');
    expect(status.state).toBe('failed');
    expect(status.partitioned?.node_states).toBe('sssssfcccc');
    expect(status.nodes.find((n) => n.id === 'n05')).toMatchObject({ state: 'failed', error: { type: 'upstream_down' } });
    expect((await runsOf(handle)).map((r) => r.status)).toEqual(['CONTINUED_AS_NEW', 'FAILED']);
    expect((await metricsOf(ctx.db, record.id)).counters).toMatchObject({ successes: 0, failures: 1 });
  });

  it('with failure_policy continue, a failure in one partition skips its successors in later ones', async () => {
    const mids = Array.from({ length: 6 }, (_, i) => ({ id: id('m', i), op: i === 1 ? 'fail' : 'noop', params: {} }));
    const { status, error, handle } = await runPlan({
      constraints: { failure_policy: 'continue' },
      nodes: [{ id: 'a', op: 'noop' }, ...mids, { id: 'z', op: 'noop' }, { id: 'zz', op: 'echo', params: {} }],
      edges: [...mids.flatMap((m) => [control('a', m.id), control(m.id, 'z')]), data('m01', 'zz')],
    });
    expect(failureType(error)).toBe('plan_run_failed');
    expect(status.error?.message).toBe('nodes failed: m01');
    // a m00 m01 m02 | m03 m04 m05 z | zz: z (control) and zz (data) are skipped in later partitions.
    expect(status.partitioned?.node_states).toBe('ssfssssk' + 'k');
    // The result details the last partition and the failures.
    expect(status.nodes.map((n) => n.id)).toEqual(['m01', 'zz']);
    expect(status.nodes.find((n) => n.id === 'zz')).toMatchObject({ state: 'skipped', reason: 'data predecessor "m01" failed' });
    expect(status.nodes.find((n) => n.id === 'm01')).toMatchObject({ state: 'failed' });
    // The node list names every node with its state, in topological order, paged and filtered.
    const { reader } = readers();
    const all = await reader.list(handle.workflowId, {}, TRUST);
    expect(all).toMatchObject({ node_count: 9, matching: 9, offset: 0 });
    expect(all.nodes.map((n) => `${n.node_id}:${n.state}`)).toEqual([
      'a:succeeded', 'm00:succeeded', 'm01:failed', 'm02:succeeded', 'm03:succeeded', 'm04:succeeded', 'm05:succeeded', 'z:skipped', 'zz:skipped',
    ]);
    const skipped = await reader.list(handle.workflowId, { state: 'skipped' }, TRUST);
    expect([skipped.matching, skipped.nodes.map((n) => n.node_id)]).toEqual([2, ['z', 'zz']]);
    const page = await reader.list(handle.workflowId, { offset: 2, limit: 3 }, TRUST);
    expect(page.nodes.map((n) => n.node_id)).toEqual(['m01', 'm02', 'm03']);
    expect(page.nodes[0]).toEqual({ node_id: 'm01', op: 'fail', state: 'failed' });
  });

  it("reads an earlier partition's node states in guards and params without carrying their outputs", async () => {
    const { status, error, handle } = await runPlan({
      nodes: [
        { id: 'a', op: 'noop' },
        { id: 'b', op: 'noop' },
        { id: 'f', op: 'fail', params: {}, policy: { continue_on_error: true } },
        { id: 'g', op: 'echo', params: { payload: 'not needed later' } },
        { id: 'report', op: 'echo', params: { f: '{{nodes.f.state}}', g: '{{nodes.g.state}}' }, guards: { eq: [{ ref: 'nodes.g.state' }, 'succeeded'] } },
        { id: 'skipme', op: 'echo', params: {}, guards: { eq: [{ ref: 'nodes.f.state' }, 'succeeded'] } },
      ],
      edges: [control('f', 'report'), control('g', 'report'), control('f', 'skipme')],
    });
    expect(error).toBeUndefined();
    // a b f g | report skipme
    expect(status.partitioned?.node_states).toBe('sstssk');
    expect(status.nodes.find((n) => n.id === 'report')).toMatchObject({ state: 'succeeded', output: { f: 'failed', g: 'succeeded' } });
    expect(status.nodes.find((n) => n.id === 'skipme')).toMatchObject({ state: 'skipped', reason: 'guard is false' });
    // The second partition started with g's state only: no output crossed the boundary.
    const [first] = await runsOf(handle);
    expect(first!.status).toBe('CONTINUED_AS_NEW');
    const history = await ctx.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
    const continued = history.events!.find((e) => e.workflowExecutionContinuedAsNewEventAttributes)!.workflowExecutionContinuedAsNewEventAttributes!;
    const carried = JSON.parse(Buffer.from(continued.input!.payloads![0]!.data!).toString()) as { carried: { outputs: Record<string, unknown> } };
    expect(carried.carried.outputs).toEqual({});
  });

  it('cancels a run in a later partition: running nodes cancelled, the rest too, counted once', async () => {
    const nodes = Array.from({ length: 12 }, (_, i) => ({ id: id('s', i), op: 'sleep', params: { ms: 400 } }));
    const { handle, record } = await start({ nodes, edges: nodes.slice(1).map((n, i) => control(nodes[i]!.id, n.id)) });
    await until(() => handle.query(statusQuery), (s) => (s.partitioned?.partition ?? 0) >= 1 && s.nodes.some((n) => n.state === 'running'), 'a node of partition 2 running', 30_000);
    // The first run has continued as new: the reconciler must follow it, not close the row.
    await reconcileOpenRuns({ client: ctx.client, runs: createRunStore(ctx.db) });
    expect((await runRows(ctx.db, record.id))[0]).toMatchObject({ status: 'running' });
    await handle.cancel();
    const { status } = await settle(handle);
    expect(status.state).toBe('cancelled');
    expect(countsOf(status)).toMatchObject({ pending: 0, running: 0 });
    expect(status.partitioned?.node_states).toMatch(/^s{4,}c+$/);
    expect((await runsOf(handle)).at(-1)?.status).toBe('CANCELLED');
    expect((await runRows(ctx.db, record.id))[0]).toMatchObject({ status: 'cancelled' });
    expect((await metricsOf(ctx.db, record.id)).execution_count).toBe(1);
  });

  it('measures a partitioned run from its start, not from the first workflow task a worker completed', async () => {
    const record = await storePlan(ctx.db, { intent: uid('partitioned'), ...addChain(6) });
    const payload = record.payload as PlanGraphPayload;
    const input: PartitionedRunInput = {
      inputs: {},
      partitioned: { plan_record_id: record.id, plan_revision: record.revision, plan_id: payload.plan_id, intent: payload.intent, node_count: 6, partition_size: PARTITION, constraints: payload.constraints },
    };
    // Whatever holds back the first workflow task (here a start delay) is part of the run, as for a whole run.
    const handle = await ctx.client.workflow.start('planExecutorWorkflow', { taskQueue: ctx.taskQueue, workflowId: uid('late-partitioned'), args: [input], startDelay: '1500ms' });
    const { status } = await settle(handle);
    expect(status.state).toBe('succeeded');
    const started = (await ctx.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe()).startTime;
    expect(status.started_at).toBe(started.toISOString());
    expect(status.latency_ms).toBeGreaterThanOrEqual(1500);
    expect((await runRows(ctx.db, record.id))[0]!.latency_ms).toBeGreaterThanOrEqual(1500);
  });

  it('gives every partition the run’s own id (`{{run.id}}`), the one the run started with, and a new one to the next run', async () => {
    const chain = (): PlanSpec => {
      const nodes = Array.from({ length: 10 }, (_, i) => ({ id: id('k', i), op: 'echo', params: { key: '{{run.id}}', where: '{{run.workflow_id}}/k' } }));
      return { nodes, edges: nodes.slice(1).map((node, i) => control(nodes[i]!.id, node.id)) };
    };
    const first = await runPlan(chain());
    const second = await runPlan(chain());
    for (const run of [first, second]) {
      expect(run.status.state).toBe('succeeded');
      expect(run.status.partitioned?.partitions).toBe(3);
      // The last partition continued as new twice: still the first execution's id.
      expect(run.status.nodes.at(-1)!.output).toMatchObject({ key: run.handle.firstExecutionRunId, where: `${run.handle.workflowId}/k` });
    }
    expect(first.handle.firstExecutionRunId).not.toBe(second.handle.firstExecutionRunId);
    const { reader } = readers();
    expect(await reader.node(first.handle.workflowId, 'k09', TRUST)).toMatchObject({ resolved_params: { key: first.handle.firstExecutionRunId } });
  });

  it('shows a partitioned run through the run view and the node reader: compact status, any node by id', async () => {
    const { handle } = await runPlan(addChain(10));
    const { viewer, reader } = readers();
    const view = await viewer.view(handle.workflowId, TRUST);
    expect(view.state).toBe('succeeded');
    expect(view.record).toMatchObject({ status: 'succeeded' });
    expect(view.result?.partitioned?.node_states).toBe('s'.repeat(10));
    expect(view.result?.nodes).toHaveLength(2);
    // In the last partition: detailed, params resolved from its predecessor in the same partition.
    expect(await reader.node(handle.workflowId, 'n09', TRUST)).toMatchObject({ state: 'succeeded', resolved_params: { a: 9, b: 1 } });
    // In an earlier partition: its state from node_states, params as declared.
    expect(await reader.node(handle.workflowId, 'n02', TRUST)).toMatchObject({ state: 'succeeded', op: 'add', resolved_params: null });
  });

  it('fails a run at a boundary when the carried state is over the limit in UTF-8 bytes, though not in characters', async () => {
    // Two outputs of 330,000 "€" (990 KB each) read across the boundary: 1.98 MB to carry, in 0.66 M characters.
    const source = (nodeId: string) => ({ id: nodeId, op: 'blob', params: { bytes: 330_000, char: '€' }, policy: { execution: 'activity' as const } });
    const record = await storePlan(ctx.db, {
      intent: uid('partitioned'),
      nodes: [source('a'), source('b'), { id: 'c', op: 'noop' }, { id: 'd', op: 'noop' }, { id: 'e', op: 'blob', params: { bytes: 0 } }],
      edges: [data('a', 'e'), data('b', 'e')],
    });
    // A starter that bounds outputs lower than the workers do cannot see this before start.
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, partitionNodes: PARTITION, outputLimitBytes: 100_000 });
    const { status, error } = await settle(handle);
    expect(failureType(error)).toBe('carried_state_too_large');
    const carried = Number(/the state carried to partition 2 is (\d+) bytes; the limit is 1900000/.exec(status.error?.message ?? '')?.[1]);
    expect(carried).toBeGreaterThan(1_900_000);
    expect(status.partitioned?.node_states).toBe('ssssc');
    expect((await runsOf(handle)).map((r) => r.status)).toEqual(['FAILED']);
    // Counting UTF-16 units, as partitions did before the patch, would have continued; the run records the patch and replays.
    const history = await handle.fetchHistory();
    expect(patchesOf(history).filter((p) => p === 'executor-carried-bytes')).toHaveLength(1);
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, sinks: REPLAY_OUTCOME_SINKS }, history, handle.workflowId);
    expect((await metricsOf(ctx.db, record.id)).counters).toMatchObject({ successes: 0, failures: 1 });
  });

  it('refuses, before start, a plan whose carried outputs could exceed the payload limit', async () => {
    // Three outputs read across one boundary, each up to the 1 MB node output limit.
    const record = await storePlan(ctx.db, {
      nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'noop' }, { id: 'c', op: 'noop' }, { id: 'd', op: 'noop' }, { id: 'e', op: 'noop' }, { id: 'z', op: 'echo', params: {} }],
      edges: [data('a', 'z'), data('b', 'z'), data('c', 'z')],
    });
    const attempt = startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, partitionNodes: PARTITION });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_plan', message: expect.stringMatching(/too large to carry between partitions: up to 3 node outputs/) });
    expect(await runRows(ctx.db, record.id)).toEqual([]);
  });
});
