/**
 * The executor on a real Temporal dev server and Postgres: graph shapes, scheduling, data,
 * guards, failure policies, retries, timeouts, cancellation and the status query.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../src/domain/plan-snapshot';
import type { PlanGraphPayload } from '../../src/domain/records';
import { EXECUTOR_VERSION, statusQuery } from '../../src/domain/run-state';
import { PLAN_ID_ATTRIBUTE, PLAN_INTENT_ATTRIBUTE, startPlanRun } from '../../src/runs/start-run';
import { byId, failureType, intervals, maxOverlap, metricsOf, runRows, settle, statesOf, summariesOf, until } from './executor-helpers';
import { uid, useWorkerContext } from './harness';
import { chain, storePlan } from './plans';

const ctx = useWorkerContext();

type PlanSpec = Parameters<typeof storePlan>[1];
const start = (record: Awaited<ReturnType<typeof storePlan>>, inputs: Record<string, unknown> = {}, taskDescriptor?: string) =>
  startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, inputs, taskDescriptor });
/** Stores a plan under an intent of its own: plans of equal structure and intent are deduplicated. */
const store = (spec: PlanSpec) => storePlan(ctx.db, { intent: uid('intent'), ...spec });
async function runPlan(spec: PlanSpec, inputs: Record<string, unknown> = {}) {
  const record = await store(spec);
  const handle = await start(record, inputs);
  return { record, handle, ...(await settle(handle)) };
}
const ctl = (from: string, to: string) => ({ from, to, kind: 'control' as const });
const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });
const fastRetry = (maximum_attempts: number) => ({ retry: { maximum_attempts, initial_interval: '50ms', maximum_interval: '100ms' } });

describe('graph shapes', () => {
  it('runs a chain in order, each node an activity named by its op with its node id', async () => {
    const { nodes, edges } = chain(3, 'timed');
    const record = await store({ nodes: nodes.map((n) => ({ ...n, params: { ms: 20 } })), edges, intent: `chain ${uid()}` });
    const handle = await start(record, {}, 'do the chain');
    const { status } = await settle(handle);
    expect(status.state).toBe('succeeded');
    const t = intervals(status);
    expect(t.n002!.started).toBeGreaterThanOrEqual(t.n001!.finished);
    expect(t.n003!.started).toBeGreaterThanOrEqual(t.n002!.finished);

    const history = await handle.fetchHistory();
    const scheduled = (history.events ?? []).flatMap((e) => {
      const a = e.activityTaskScheduledEventAttributes;
      return a ? [[a.activityId, a.activityType?.name]] : [];
    });
    expect(scheduled).toEqual([
      ['n001', 'timed'],
      ['n002', 'timed'],
      ['n003', 'timed'],
      // No more: the run's bookkeeping is a local activity (beginRun) and the worker's outcome sink.
    ]);
    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(PLAN_ID_ATTRIBUTE)).toBe(record.id);
    expect(description.typedSearchAttributes.get(PLAN_INTENT_ATTRIBUTE)).toBe(record.payload.kind === 'plan_graph' && record.payload.intent);
    expect(description.memo).toMatchObject({ task_descriptor: 'do the chain' });
  });

  it('runs a diamond: the join waits for both branches and gets both outputs', async () => {
    const { status } = await runPlan({
      nodes: [
        { id: 'top', op: 'echo', params: { v: 1 } },
        { id: 'left', op: 'timed', params: { ms: 200 } },
        { id: 'right', op: 'timed', params: { ms: 20 } },
        { id: 'join', op: 'echo', params: {} },
      ],
      edges: [ctl('top', 'left'), ctl('top', 'right'), data('left', 'join'), data('right', 'join')],
    });
    expect(status.state).toBe('succeeded');
    const t = intervals(status);
    // The branches ran side by side, and the join received both outputs.
    expect(t.left!.started).toBeLessThan(t.right!.finished);
    expect(byId(status).join!.output).toEqual({ inputs: { left: t.left, right: t.right } });
  });

  it('runs a wide fan-out in parallel (overlap measured inside the activities)', async () => {
    const leaves = Array.from({ length: 8 }, (_, i) => ({ id: `leaf${i}`, op: 'timed', params: { ms: 400 } }));
    const { status } = await runPlan({ nodes: [{ id: 'root', op: 'noop' }, ...leaves], edges: leaves.map((l) => ctl('root', l.id)) });
    expect(status.state).toBe('succeeded');
    const t = Object.values(intervals(status));
    expect(t).toHaveLength(8);
    // Every leaf started before any leaf finished: all eight ran at once.
    expect(Math.max(...t.map((i) => i.started))).toBeLessThan(Math.min(...t.map((i) => i.finished)));
    expect(maxOverlap(t)).toBe(8);
  });

  it('schedules eagerly: a short chain moves on while a long chain is still on its first node', async () => {
    const { status } = await runPlan({
      nodes: [
        { id: 'long1', op: 'timed', params: { ms: 1500 } },
        { id: 'long2', op: 'timed', params: { ms: 10 } },
        { id: 'long3', op: 'timed', params: { ms: 10 } },
        { id: 'short1', op: 'timed', params: { ms: 50 } },
        { id: 'short2', op: 'timed', params: { ms: 50 } },
      ],
      edges: [ctl('long1', 'long2'), ctl('long2', 'long3'), ctl('short1', 'short2')],
    });
    expect(status.state).toBe('succeeded');
    const t = intervals(status);
    expect(t.short2!.started).toBeGreaterThanOrEqual(t.short1!.finished);
    expect(t.short2!.finished).toBeLessThan(t.long1!.finished);
  });

  it('respects max_parallelism', async () => {
    const nodes = Array.from({ length: 6 }, (_, i) => ({ id: `w${i}`, op: 'timed', params: { ms: 250 } }));
    const { status } = await runPlan({ nodes, constraints: { max_parallelism: 2 } });
    expect(status.state).toBe('succeeded');
    const t = Object.values(intervals(status));
    expect(t).toHaveLength(6);
    // Capped at two, and actually using both slots.
    expect(maxOverlap(t)).toBe(2);
  });
});

describe('data and guards', () => {
  it('passes typed data along data edges and interpolates inside strings', async () => {
    const { status } = await runPlan(
      {
        nodes: [
          { id: 'first', op: 'add', params: { a: '{{inputs.x}}', b: 2 } },
          { id: 'second', op: 'add', params: { a: '{{nodes.first.output.sum}}', b: '{{inputs.y}}' } },
          { id: 'report', op: 'echo', params: { label: 'sum={{nodes.second.output.sum}} for {{inputs.who}}', whole: '{{nodes.second.output}}', flags: '{{inputs.flags}}' } },
        ],
        edges: [data('first', 'second'), data('second', 'report')],
      },
      { x: 40, y: 0.5, who: 'ada', flags: [true, null] },
    );
    expect(status.state).toBe('succeeded');
    const nodes = byId(status);
    expect(nodes.first!.output).toEqual({ sum: 42 });
    expect(nodes.second!.output).toEqual({ sum: 42.5 });
    expect(nodes.report!.output).toEqual({
      label: 'sum=42.5 for ada',
      whole: { sum: 42.5 },
      flags: [true, null],
      // The activity receives its data predecessors' outputs, and only those.
      inputs: { second: { sum: 42.5 } },
    });
  });

  it('skips a node whose guard is false, skips its data successors and runs its control successors', async () => {
    const spec: PlanSpec = {
      nodes: [
        { id: 'start', op: 'echo', params: { n: '{{inputs.n}}' } },
        { id: 'big', op: 'echo', params: { v: 'big' }, guards: { gt: [{ ref: 'nodes.start.output.n' }, 10] } },
        { id: 'uses_big', op: 'echo', params: { v: '{{nodes.big.output.v}}' } },
        { id: 'after_big', op: 'noop', guards: { eq: [{ ref: 'nodes.big.state' }, 'skipped'] } },
      ],
      edges: [data('start', 'big'), data('big', 'uses_big'), ctl('big', 'after_big')],
    };
    const small = await runPlan(spec, { n: 3 });
    expect(small.status.state).toBe('succeeded');
    expect(statesOf(small.status)).toEqual({ start: 'succeeded', big: 'skipped', uses_big: 'skipped', after_big: 'succeeded' });
    expect(byId(small.status).big!.reason).toBe('guard is false');
    const large = await runPlan(spec, { n: 11 });
    expect(statesOf(large.status)).toEqual({ start: 'succeeded', big: 'succeeded', uses_big: 'succeeded', after_big: 'skipped' });
  });
});

describe('failure policies and retries', () => {
  it('fail_fast: the first failure cancels a running sibling and fails the run', async () => {
    const { handle, status, error, record } = await runPlan({
      nodes: [
        { id: 'warmup', op: 'timed', params: { ms: 300 } },
        { id: 'boom', op: 'fail', params: { type: 'kaput' } },
        { id: 'slow', op: 'sleep', params: { ms: 60_000 } },
        { id: 'after_slow', op: 'noop' },
      ],
      edges: [ctl('warmup', 'boom'), ctl('slow', 'after_slow')],
    });
    expect(status.state).toBe('failed');
    expect(failureType(error)).toBe('kaput');
    expect(statesOf(status)).toEqual({ warmup: 'succeeded', boom: 'failed', slow: 'cancelled', after_slow: 'cancelled' });
    expect(byId(status).boom!.error).toMatchObject({ type: 'kaput' });
    const events = (await handle.fetchHistory()).events ?? [];
    const slowScheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'slow');
    const cancelRequests = events.flatMap((e) => (e.activityTaskCancelRequestedEventAttributes ? [String(e.activityTaskCancelRequestedEventAttributes.scheduledEventId)] : []));
    expect(cancelRequests).toEqual([String(slowScheduled?.eventId)]);
    expect((await metricsOf(ctx.db, record.id)).failure_rate).toBe(1);
  });

  it('fail_fast one node at a time (max_parallelism 1): a failure cancels the nodes not started yet', async () => {
    const { status, error } = await runPlan({
      nodes: [{ id: 'a_boom', op: 'fail', params: { type: 'kaput' } }, { id: 'b', op: 'noop' }, { id: 'c', op: 'noop' }],
      constraints: { max_parallelism: 1 },
    });
    expect(status.state).toBe('failed');
    expect(failureType(error)).toBe('kaput');
    expect(statesOf(status)).toEqual({ a_boom: 'failed', b: 'cancelled', c: 'cancelled' });
    expect(byId(status).b!.reason).toMatch(/run aborted: node "a_boom" failed/);
  });

  it('fails a node whose params read an upstream output that is not there, without running it; inputs left out are left out', async () => {
    const { status, handle } = await runPlan({
      constraints: { failure_policy: 'continue' },
      nodes: [
        { id: 'lookup', op: 'echo', params: { cluster: { name: 'c-7' }, items: [1, 2] }, policy: { execution: 'activity' } },
        // A learned plan's lookup no longer returns what it did: never a call without the value.
        { id: 'scale', op: 'echo', params: { cluster_id: '{{nodes.lookup.output.cluster.id}}', replicas: '{{inputs.replicas}}' }, policy: { execution: 'activity' } },
        { id: 'cd', op: 'echo', params: { cmd: 'cd {{nodes.lookup.output.dir}} && make', third: '{{nodes.lookup.output.items.2}}' } },
        { id: 'each', op: 'echo', for_each: '{{nodes.lookup.output.items}}', params: { n: '{{item}}', owner: '{{nodes.lookup.output.owner}}' } },
        {
          id: 'fine',
          op: 'echo',
          params: { name: '{{nodes.lookup.output.cluster.name}}', count: '{{nodes.lookup.output.items.1}}', key: '{{run.id}}', maybe: '{{inputs.replicas}}' },
          policy: { execution: 'activity' },
        },
      ],
      edges: [data('lookup', 'scale'), data('lookup', 'cd'), data('lookup', 'each'), data('lookup', 'fine')],
    });
    expect(status.state).toBe('failed');
    const nodes = byId(status);
    expect(nodes.scale).toMatchObject({
      state: 'failed',
      attempts: 0,
      error: { type: 'unresolved_reference', message: 'node "scale" (echo): cluster_id reads {{nodes.lookup.output.cluster.id}}, but "cluster" in the output of "lookup" has only name' },
    });
    expect(nodes.cd!.error!.message).toBe(
      'node "cd" (echo): cmd reads {{nodes.lookup.output.dir}}, but the output of "lookup" has only cluster, items; third reads {{nodes.lookup.output.items.2}}, but "items" in the output of "lookup" has 2 items',
    );
    expect(nodes.each).toMatchObject({ state: 'failed', error: { type: 'unresolved_reference' } });
    // What resolves runs as before: an optional input left out is a param left out.
    expect(nodes.fine).toMatchObject({ state: 'succeeded', output: { name: 'c-7', count: 2, key: handle.firstExecutionRunId } });
    expect(nodes.fine!.output).not.toHaveProperty('maybe');
    // Only the activities that ran were scheduled (echo is local unless a node says otherwise).
    const history = await handle.fetchHistory();
    const scheduled = (history.events ?? []).flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityId] : []));
    expect(scheduled.sort()).toEqual(['fine', 'lookup']);
  });

  it('continue: independent branches finish, and the run fails only for failures not tolerated', async () => {
    const spec = (tolerateAll: boolean): PlanSpec => ({
      constraints: { failure_policy: 'continue' },
      nodes: [
        { id: 'bad', op: 'fail', policy: { continue_on_error: tolerateAll } },
        { id: 'after_bad', op: 'noop' },
        { id: 'tolerated', op: 'fail', policy: { continue_on_error: true } },
        { id: 'after_tolerated', op: 'noop' },
        { id: 'other1', op: 'timed', params: { ms: 200 } },
        { id: 'other2', op: 'noop' },
      ],
      edges: [ctl('bad', 'after_bad'), ctl('tolerated', 'after_tolerated'), ctl('other1', 'other2')],
    });
    const failing = await runPlan(spec(false));
    expect(failing.status.state).toBe('failed');
    expect(statesOf(failing.status)).toEqual({
      bad: 'failed',
      after_bad: 'skipped',
      tolerated: 'failed',
      after_tolerated: 'succeeded',
      other1: 'succeeded',
      other2: 'succeeded',
    });
    expect(failing.status.error?.message).toContain('bad');
    expect(failing.status.error?.message).not.toContain('tolerated');
    const tolerant = await runPlan(spec(true));
    expect(tolerant.status.state).toBe('succeeded');
  });

  it('retries a flaky node until it succeeds, reports the attempts and counts the run once', async () => {
    const { status, record, handle } = await runPlan({
      nodes: [{ id: 'flaky', op: 'flaky', params: { fail_times: 2 }, policy: fastRetry(5) }],
    });
    expect(status.state).toBe('succeeded');
    expect(byId(status).flaky).toMatchObject({ state: 'succeeded', attempts: 3, output: { attempt: 3 } });
    const metrics = await metricsOf(ctx.db, record.id);
    expect(metrics).toMatchObject({ execution_count: 1, failure_rate: 0, counters: { successes: 1, failures: 0, latency_samples: 1 } });
    expect(await runRows(ctx.db, record.id)).toEqual([expect.objectContaining({ workflow_id: handle.workflowId, status: 'succeeded' })]);
  });

  it('gives up after maximum_attempts and reports them', async () => {
    const { status } = await runPlan({ nodes: [{ id: 'flaky', op: 'flaky', params: { fail_times: 10 }, policy: fastRetry(2) }] });
    expect(status.state).toBe('failed');
    expect(byId(status).flaky).toMatchObject({ state: 'failed', attempts: 2, error: { type: 'Error' } });
  });

  it('fails bad params once, without retrying', async () => {
    const { status } = await runPlan({ nodes: [{ id: 'sum', op: 'add', params: { a: 'one', b: 2 }, policy: fastRetry(5) }] });
    expect(byId(status).sum).toMatchObject({ state: 'failed', attempts: 1, error: { type: 'invalid_params' } });
  });

  it("cuts a failure message over 8 KB in the node's status, the run's error and its row, saying how long it was", async () => {
    // 20,000 "é": 40,000 bytes of UTF-8, as an op that puts a whole response body in its message.
    const { status, error, record } = await runPlan({ nodes: [{ id: 'boom', op: 'fail', params: { type: 'verbose', message: 'é'.repeat(20_000) } }] });
    expect(failureType(error)).toBe('verbose');
    const message = byId(status).boom!.error!.message;
    expect(message).toMatch(/^é+ … \[truncated: 40000 bytes in all\]$/);
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(8192);
    expect(Buffer.byteLength(message)).toBeGreaterThan(8150);
    expect(status.error?.message).toBe(`node "boom" failed: ${message}`);
    const row = await ctx.db.execute<{ error: { message: string } }>(sql`SELECT error FROM plan_runs WHERE plan_id = ${record.id}`);
    expect(row.rows[0]?.error.message).toBe(status.error?.message);
  });

  it('fails the whole run when it exceeds constraints.timeout, cancelling what runs', async () => {
    const { status, error, record, handle } = await runPlan({
      constraints: { timeout: '1s' },
      nodes: [{ id: 'forever', op: 'sleep', params: { ms: 60_000 } }, { id: 'next', op: 'noop' }],
      edges: [ctl('forever', 'next')],
    });
    expect(status.state).toBe('failed');
    expect(failureType(error)).toBe('run_timeout');
    expect(statesOf(status)).toEqual({ forever: 'cancelled', next: 'cancelled' });
    expect(status.latency_ms).toBeLessThan(10_000);
    expect((await metricsOf(ctx.db, record.id)).counters).toMatchObject({ failures: 1, successes: 0 });
    expect(await summariesOf(handle, (e) => Boolean(e.timerStartedEventAttributes))).toEqual(['run timeout · 1s']);
  });
});

describe('refusals', () => {
  it('refuses inputs that violate inputs_schema before starting, and the worker refuses them too', async () => {
    const record = await store({
      nodes: [{ id: 'a', op: 'echo', params: { n: '{{inputs.n}}' } }],
      inputs_schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } },
    });
    await expect(start(record, { n: 0 })).rejects.toMatchObject({ code: 'invalid_inputs', details: { problems: [expect.stringContaining('inputs.n')] } });
    // A client that skips the check is stopped by the worker's beginRun before any node runs.
    const handle = await ctx.client.workflow.start('planExecutorWorkflow', {
      taskQueue: ctx.taskQueue,
      workflowId: uid('bypass'),
      args: [{ plan: { record_id: record.id, revision: record.revision, payload: record.payload }, inputs: { n: 'x' } }],
    });
    const { status, error } = await settle(handle);
    expect(failureType(error)).toBe('invalid_inputs');
    expect(statesOf(status)).toEqual({ a: 'pending' });
    expect(await runRows(ctx.db, record.id)).toEqual([]);
  });

  it('refuses a plan with an op no worker provides before it starts', async () => {
    const record = await store({ nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'teleport' }] });
    const knownOps = new Set(['noop', 'echo']);
    await expect(startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, knownOps })).rejects.toMatchObject({
      code: 'invalid_plan',
      details: { issues: [expect.objectContaining({ code: 'unknown_op', path: 'nodes[1].op' })] },
    });
    // Without the client-side check, the worker refuses it before any node runs.
    const { status, error } = await settle(await start(record));
    expect(failureType(error)).toBe('unknown_op');
    expect(statesOf(status)).toEqual({ a: 'pending', b: 'pending' });
  });

  it('fails an unknown op that reaches a worker through the default activity, without retrying', async () => {
    const { status } = await runPlan({
      nodes: [{ id: 'ghost', op: 'teleport', policy: { task_queue: ctx.taskQueue, ...fastRetry(5) } }],
    });
    expect(status.state).toBe('failed');
    expect(byId(status).ghost).toMatchObject({ state: 'failed', attempts: 1, error: { type: 'unknown_op' } });
    expect(byId(status).ghost!.error!.message).toContain('teleport');
  });
});

describe('watching and cancelling', () => {
  it('answers the status query while running', async () => {
    const record = await store({
      nodes: [{ id: 'wait', op: 'sleep', params: { ms: 1500 } }, { id: 'then', op: 'noop' }],
      edges: [ctl('wait', 'then')],
    });
    const handle = await start(record);
    const running = await until(() => handle.query(statusQuery), (s) => s.nodes.some((n) => n.state === 'running'), 'a running node');
    expect(running.state).toBe('running');
    expect(running.plan_record_id).toBe(record.id);
    expect(statesOf(running)).toEqual({ wait: 'running', then: 'pending' });
    expect(byId(running).wait!.started_at).toBeDefined();
    const { status } = await settle(handle);
    expect(statesOf(status)).toEqual({ wait: 'succeeded', then: 'succeeded' });
    expect(status.finished_at).toBeDefined();
  });

  it('cancels a run: running and pending nodes end cancelled and the run counts as one failure', async () => {
    const record = await store({
      nodes: [{ id: 'quick', op: 'noop' }, { id: 'long', op: 'sleep', params: { ms: 60_000 } }, { id: 'after', op: 'echo', params: {} }],
      edges: [ctl('long', 'after')],
    });
    const handle = await start(record);
    await until(() => handle.query(statusQuery), (s) => byId(s).long!.state === 'running' && byId(s).quick!.state === 'succeeded', 'long running');
    await handle.cancel();
    const { status, error } = await settle(handle);
    expect((error as Error).cause).toMatchObject({ name: 'CancelledFailure' });
    expect(status.state).toBe('cancelled');
    expect(statesOf(status)).toEqual({ quick: 'succeeded', long: 'cancelled', after: 'cancelled' });
    const metrics = await metricsOf(ctx.db, record.id);
    expect(metrics).toMatchObject({ execution_count: 1, failure_rate: 1 });
    expect(await runRows(ctx.db, record.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });

  it('a run cancelled before its first workflow task (no starter opened it) still ends with every node cancelled and counts once', async () => {
    const record = await store({ nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'noop' }], edges: [ctl('a', 'b')] });
    // As a client that starts the executor itself would: no `begun`, so the run opens its own row.
    const input = { plan: planSnapshot(record, record.payload as PlanGraphPayload), inputs: {}, executor_version: EXECUTOR_VERSION };
    const handle = await ctx.client.workflow.start('planExecutorWorkflow', { taskQueue: ctx.taskQueue, workflowId: uid('early-cancel'), args: [input], startDelay: '2s' });
    await handle.cancel();
    const { status, error } = await settle(handle);
    expect((error as Error).cause).toMatchObject({ name: 'CancelledFailure' });
    expect(status.state).toBe('cancelled');
    expect(statesOf(status)).toEqual({ a: 'cancelled', b: 'cancelled' });
    expect(await runRows(ctx.db, record.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 1 });
  });

  it('measures a run from its start, not from the first workflow task a worker completed', async () => {
    const record = await store({ nodes: [{ id: 'a', op: 'noop' }] });
    const input = { plan: planSnapshot(record, record.payload as PlanGraphPayload), inputs: {}, executor_version: EXECUTOR_VERSION };
    // Whatever holds back the first workflow task (no worker free, a failing task, here a start delay) is part of the run.
    const handle = await ctx.client.workflow.start('planExecutorWorkflow', { taskQueue: ctx.taskQueue, workflowId: uid('late-task'), args: [input], startDelay: '1500ms' });
    const { status } = await settle(handle);
    const started = (await handle.describe()).startTime;
    expect(status.started_at).toBe(started.toISOString());
    expect(status.latency_ms).toBeGreaterThanOrEqual(1500);
    const [row] = await runRows(ctx.db, record.id);
    expect(row).toMatchObject({ status: 'succeeded' });
    expect(row!.latency_ms).toBeGreaterThanOrEqual(1500);
  });

  it('cancels a chain run: its one running node is cancelled through the run itself', async () => {
    const record = await store({
      nodes: [{ id: 'first', op: 'noop' }, { id: 'long', op: 'sleep', params: { ms: 60_000 } }, { id: 'after', op: 'echo', params: {} }],
      edges: [ctl('first', 'long'), ctl('long', 'after')],
    });
    const handle = await start(record);
    await until(() => handle.query(statusQuery), (s) => byId(s).long!.state === 'running', 'long running');
    await handle.cancel();
    const { status, error } = await settle(handle);
    expect((error as Error).cause).toMatchObject({ name: 'CancelledFailure' });
    expect(status.state).toBe('cancelled');
    expect(statesOf(status)).toEqual({ first: 'succeeded', long: 'cancelled', after: 'cancelled' });
    const events = (await handle.fetchHistory()).events ?? [];
    const longScheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'long');
    const cancelRequests = events.flatMap((e) => (e.activityTaskCancelRequestedEventAttributes ? [String(e.activityTaskCancelRequestedEventAttributes.scheduledEventId)] : []));
    expect(cancelRequests).toEqual([String(longScheduled?.eventId)]);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 1 });
  });
});
