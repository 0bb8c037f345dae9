/**
 * Cheap nodes as local activities, on a real Temporal dev server and Postgres: which nodes run
 * locally, what the history and the status show for them, and that retries, timeouts and
 * validation still apply.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors';
import { startPlanRun } from '../../src/runs/start-run';
import { byId, failureType, metricsOf, runRows, settle, summariesOf } from './executor-helpers';
import { uid, useWorkerContext } from './harness';
import { storePlan, type PlanSpec } from './plans';

const ctx = useWorkerContext();

const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });
const store = (spec: PlanSpec) => storePlan(ctx.db, { intent: uid('local'), ...spec });
async function runPlan(spec: PlanSpec) {
  const record = await store(spec);
  const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
  return { record, handle, ...(await settle(handle)) };
}

/** What the history says ran: activities by [activity id, type]; local activities by their marker summaries. */
async function executedIn(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const activities = events.flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    return a ? [[a.activityId, a.activityType?.name]] : [];
  });
  const summaries = await summariesOf(handle, (e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
  return { activities, summaries };
}

describe('local nodes', () => {
  it('runs the pure built-ins locally: markers name op and node, status and result show them, data flows', async () => {
    const { handle, status, record } = await runPlan({
      nodes: [
        { id: 'load', op: 'echo', params: { user: { name: 'ada', id: 7 } } },
        { id: 'pick', op: 'json_pick', params: { from: '{{nodes.load.output.user}}', fields: { who: 'name' } } },
        { id: 'merge', op: 'json_merge', params: {} },
        { id: 'slow', op: 'timed', params: { ms: 10 } },
      ],
      edges: [data('load', 'pick'), data('pick', 'merge'), data('slow', 'merge')],
    });
    expect(status.state).toBe('succeeded');
    const nodes = byId(status);
    expect(nodes.pick).toMatchObject({ state: 'succeeded', execution: 'local', attempts: 1, output: { who: 'ada' } });
    expect(nodes.merge!.output).toMatchObject({ who: 'ada', node: 'slow' });
    expect(nodes.slow).toMatchObject({ execution: 'activity' });

    const { activities, summaries } = await executedIn(handle);
    // Only the `timed` node went through the server; the outcome went to the worker's sink.
    expect(activities).toEqual([['slow', 'timed']]);
    expect(summaries).toEqual(expect.arrayContaining(['echo · load', 'json_pick · pick', 'json_merge · merge']));
    expect(summaries).toHaveLength(3 + 1); // three nodes and beginRun
    expect((await runRows(ctx.db, record.id))[0]).toMatchObject({ status: 'succeeded' });
    expect((await metricsOf(ctx.db, record.id)).execution_count).toBe(1);
  });

  it('lets a node override its op: policy.execution "activity" and "local"', async () => {
    const { handle, status } = await runPlan({
      nodes: [
        { id: 'as_activity', op: 'echo', params: { v: 1 }, policy: { execution: 'activity' } },
        { id: 'as_local', op: 'timed', params: { ms: 5 }, policy: { execution: 'local' } },
        // A heartbeat timeout needs a real activity, so the op's local default gives way.
        { id: 'heartbeating', op: 'noop', policy: { heartbeat_timeout: '10s' } },
      ],
    });
    expect(status.state).toBe('succeeded');
    expect(byId(status).as_local).toMatchObject({ state: 'succeeded', execution: 'local' });
    const { activities, summaries } = await executedIn(handle);
    expect(activities.sort()).toEqual([
      ['as_activity', 'echo'],
      ['heartbeating', 'noop'],
    ]);
    expect(summaries).toContain('timed · as_local');
  });

  it('retries a failing local node under the node policy and counts its attempts', async () => {
    const { status } = await runPlan({
      nodes: [{ id: 'flaky', op: 'flaky', params: { fail_times: 2 }, policy: { execution: 'local', retry: { maximum_attempts: 3, initial_interval: '50ms' } } }],
    });
    expect(status.state).toBe('succeeded');
    expect(byId(status).flaky).toMatchObject({ state: 'succeeded', execution: 'local', attempts: 3, output: { attempt: 3 } });
  });

  it('applies the start-to-close timeout to a local node', async () => {
    const { status, error } = await runPlan({
      nodes: [{ id: 'stuck', op: 'timed', params: { ms: 5000 }, policy: { execution: 'local', start_to_close_timeout: '300ms', retry: { maximum_attempts: 1 } } }],
    });
    expect(status.state).toBe('failed');
    expect(byId(status).stuck).toMatchObject({ state: 'failed', execution: 'local' });
    expect(byId(status).stuck!.error?.message).toMatch(/timed? ?out/i);
    // fail_fast: the run fails with the node's own failure type.
    expect(failureType(error)).toBe('TimeoutFailure');
  });

  it('runs an op that heartbeats as a local node too (a local activity cannot heartbeat: its heartbeats are dropped)', async () => {
    const { status } = await runPlan({ nodes: [{ id: 'nap', op: 'sleep', params: { ms: 300 }, policy: { execution: 'local', start_to_close_timeout: '5s' } }] });
    expect(status.state).toBe('succeeded');
    expect(byId(status).nap).toMatchObject({ state: 'succeeded', execution: 'local', attempts: 1 });
  });

  it('counts the attempts of an activity node that timed out until its retries ran out (a timeout carries no attempt of its own)', async () => {
    const { status } = await runPlan({
      nodes: [{ id: 'stuck', op: 'timed', params: { ms: 5000 }, policy: { execution: 'activity', start_to_close_timeout: '300ms', retry: { maximum_attempts: 2, initial_interval: '50ms' } } }],
    });
    expect(status.state).toBe('failed');
    expect(byId(status).stuck).toMatchObject({ state: 'failed', execution: 'activity', attempts: 2, error: { type: 'TimeoutFailure' } });
  });

  it('refuses before start a local node that could run long, naming the node and the cap', async () => {
    const record = await store({
      nodes: [{ id: 'long', op: 'sleep', params: { ms: 60_000 }, policy: { execution: 'local', start_to_close_timeout: '5m' } }],
    });
    const started = startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
    await expect(started).rejects.toBeInstanceOf(DomainError);
    await expect(started).rejects.toMatchObject({
      code: 'invalid_plan',
      details: { issues: [expect.objectContaining({ code: 'invalid_execution', path: 'nodes[0].policy.execution', message: expect.stringContaining('30s cap') })] },
    });
    expect(await runRows(ctx.db, record.id)).toEqual([]);
  });
});
