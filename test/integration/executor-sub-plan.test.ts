/**
 * Sub-plan nodes on a real Temporal dev server and Postgres: a stored plan run as a child run
 * with data passed in and out, a failing child, a cycle of plans refused, and a child the caller
 * may not see or run refused.
 */
import { sql } from 'drizzle-orm';
import { DomainError } from '../../src/domain/errors';
import { describe, expect, it } from 'vitest';
import type { PlanGraphPayload, Sensitivity, TrustContext } from '../../src/domain/records';
import { PLAN_ID_ATTRIBUTE, startPlanRun } from '../../src/runs/start-run';
import { createRecordStore } from '../../src/store/records';
import { createRunStore } from '../../src/store/plan-runs';
import { createRunViewer } from '../../src/intents/run-view';
import { statusQuery, type PlanRunInput } from '../../src/domain/run-state';
import { byId, failureType, metricsOf, runRows, settle, startInput, until } from './executor-helpers';
import { uid, useWorkerContext } from './harness';
import { storePlan, type PlanSpec } from './plans';

const ctx = useWorkerContext();

const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });
const store = (spec: PlanSpec) => storePlan(ctx.db, { intent: uid('sub'), ...spec });
const callPlan = (id: string, planId: string, inputs?: Record<string, unknown>) => ({ id, op: 'plan', params: { plan_id: planId, ...(inputs ? { inputs } : {}) } });
async function run(spec: PlanSpec, trust?: TrustContext) {
  const record = await store(spec);
  const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, trust });
  return { record, handle, ...(await settle(handle)) };
}

/** The message of the first ApplicationFailure in an error's cause chain. */
function failureMessage(error: unknown): string | undefined {
  for (let e = error as Error | undefined; e; e = e.cause as Error | undefined) if (e.name === 'ApplicationFailure') return e.message;
  return undefined;
}

/** A child that adds 1 to its input x. */
const addOne = (extra: Partial<PlanSpec> = {}) =>
  store({
    inputs_schema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
    nodes: [{ id: 'inc', op: 'add', params: { a: '{{inputs.x}}', b: 1 } }],
    ...extra,
  });

describe('sub-plan nodes', () => {
  it('runs a stored plan as a child run: inputs in, outputs out, its own run row and metrics', async () => {
    const searchable = { description: 'adds one to a number', examples: ['increment x', 'add 1 to the count'] };
    const child = await addOne(searchable);
    const { status, handle, record } = await run({
      ...searchable,
      nodes: [
        { id: 'src', op: 'echo', params: { v: 41 } },
        callPlan('sub', child.id, { x: '{{nodes.src.output.v}}' }),
        { id: 'after', op: 'echo', params: { got: '{{nodes.sub.output.outputs.inc.sum}}' } },
      ],
      edges: [data('src', 'sub'), data('sub', 'after')],
    });
    expect(status.state).toBe('succeeded');
    const nodes = byId(status);
    const childId = `${handle.workflowId}/sub`;
    expect(nodes.sub).toMatchObject({
      state: 'succeeded',
      sub_plan: { workflow_id: childId, plan_record_id: child.id, plan_revision: child.revision },
      output: { workflow_id: childId, plan_record_id: child.id, plan_revision: child.revision, state: 'succeeded', outputs: { inc: { sum: 42 } } },
    });
    expect(nodes.after!.output).toEqual({ got: 42, inputs: { sub: nodes.sub!.output } });
    expect(await runRows(ctx.db, child.id)).toEqual([expect.objectContaining({ workflow_id: childId, status: 'succeeded' })]);
    // Found by its plan like any run (the API decides who may see it by PlanId).
    expect((await ctx.client.workflow.getHandle(childId).describe()).typedSearchAttributes.get(PLAN_ID_ATTRIBUTE)).toBe(child.id);
    expect((await metricsOf(ctx.db, child.id)).execution_count).toBe(1);
    expect((await metricsOf(ctx.db, record.id)).execution_count).toBe(1);
    // The pin is in the parent's history: the local activity that resolved it.
    const markers = (await handle.fetchHistory()).events?.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity') ?? [];
    expect(markers.length).toBe(4); // pinSubPlans, beginRun, the two local echo nodes (the outcome goes to the worker's sink)
    // Both runs carry their plan without its searchable text and metrics, which stay in the store
    // (the metrics change as runs end: a copy in the start input would be stale).
    for (const [workflowId, stored] of [[handle.workflowId, record], [childId, child]] as const) {
      const { plan } = (await startInput(ctx.client.workflow.getHandle(workflowId))) as PlanRunInput;
      const { description, examples, metrics, ...runnable } = stored.payload as PlanGraphPayload;
      expect({ description, examples }).toEqual(searchable);
      expect(metrics).toMatchObject({ execution_count: 0 });
      expect(plan).toEqual({ record_id: stored.id, revision: stored.revision, payload: runnable });
    }
  }, 60_000);

  it('fails the node with sub_plan_failed when the child run fails (here: inputs its schema refuses)', async () => {
    const failing = await store({ nodes: [{ id: 'boom', op: 'fail', params: { type: 'upstream_down', message: 'down' } }] });
    const child = await addOne();
    const { status, error } = await run({
      constraints: { failure_policy: 'continue' },
      nodes: [callPlan('broken', failing.id), callPlan('bad_inputs', child.id, { x: 'not a number' }), callPlan('fine', child.id, { x: 1 })],
    });
    expect(status.state).toBe('failed');
    expect(failureType(error)).toBe('plan_run_failed');
    const nodes = byId(status);
    expect(nodes.broken).toMatchObject({ state: 'failed', error: { type: 'sub_plan_failed' } });
    expect(nodes.broken!.error!.message).toContain(`sub-plan ${failing.id} (revision ${failing.revision}) failed: upstream_down`);
    expect(nodes.bad_inputs).toMatchObject({ state: 'failed', error: { type: 'sub_plan_failed' } });
    expect(nodes.bad_inputs!.error!.message).toContain('invalid_inputs');
    expect(nodes.fine).toMatchObject({ state: 'succeeded', output: { outputs: { inc: { sum: 2 } } } });
    expect((await metricsOf(ctx.db, failing.id)).counters.failures).toBe(1);
  }, 60_000);

  it('a child whose stored inputs_schema does not compile fails its node with invalid_plan naming the path, not an Ajv stack', async () => {
    const child = await store({ inputs_schema: { properties: { x: { type: 'numbr' } } }, nodes: [{ id: 'inc', op: 'add', params: { a: 1, b: 1 } }] });
    const { status } = await run({ nodes: [callPlan('sub', child.id, { x: 1 })] });
    expect(status.state).toBe('failed');
    const node = byId(status).sub!;
    expect(node).toMatchObject({ state: 'failed', error: { type: 'sub_plan_failed' } });
    expect(node.error!.message).toContain(`sub-plan ${child.id} (revision ${child.revision}) failed: invalid_plan: invalid_schema at inputs_schema.properties.x.type`);
    expect(node.error!.message).not.toMatch(/schema is invalid|\n\s+at /);
    expect(await runRows(ctx.db, child.id)).toEqual([]);
  }, 60_000);

  it('cancelling the caller cancels the child run', async () => {
    const child = await store({ nodes: [{ id: 'long', op: 'timed', params: { ms: 30_000 }, policy: { heartbeat_timeout: '2s' } }] });
    const record = await store({ nodes: [callPlan('sub', child.id)] });
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
    const childHandle = ctx.client.workflow.getHandle(`${handle.workflowId}/sub`);
    await until(() => childHandle.query(statusQuery).catch(() => undefined), (s) => s?.nodes[0]?.state === 'running', 'child node running');
    await handle.cancel();
    const { status } = await settle(handle);
    expect(status.state).toBe('cancelled');
    expect(byId(status).sub).toMatchObject({ state: 'cancelled' });
    expect((await childHandle.describe()).status.name).toBe('CANCELLED');
    expect(await runRows(ctx.db, child.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  }, 60_000);

  it('refuses a cycle of plans calling plans before the run opens its row', async () => {
    const leaf = await store({ nodes: [{ id: 'n', op: 'noop' }] });
    const b = await store({ nodes: [callPlan('call_leaf', leaf.id)] });
    const a = await store({ nodes: [callPlan('call_b', b.id)] });
    // Stored records never change through the API; a manual edit is how a cycle could arise.
    const looped = { ...b.payload, nodes: [callPlan('call_a', a.id)] };
    await ctx.db.execute(sql`UPDATE memory_records SET payload = ${JSON.stringify(looped)}::jsonb WHERE id = ${b.id}`);
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record: a });
    const { status, error } = await settle(handle);
    expect(failureType(error)).toBe('sub_plan_cycle');
    expect(failureMessage(error)).toBe(
      `plans call each other in a cycle: ${a.id} -> ${b.id} -> ${a.id}`,
    );
    expect(status.state).toBe('running'); // never got past the start: no node ran
    expect(status.nodes.every((n) => n.state === 'pending')).toBe(true);
    expect(await runRows(ctx.db, a.id)).toEqual([]);
  }, 60_000);

  it('refuses a sub-plan the caller may not see or may not run, under the trust the run was started with', async () => {
    const trust: TrustContext = { max_sensitivity: 'low', authenticated: false };
    const at = (sensitivity: Sensitivity, constraints?: Record<string, unknown>) => store({ sensitivity, constraints, nodes: [{ id: 'n', op: 'noop' }] });
    const hidden = await at('high');
    const redacted = await at('medium');
    const needsAuth = await at('low', { requires_authenticated: true });
    const visible = await at('low');

    const refused = async (target: string) => {
      const { error, record } = await run({ nodes: [callPlan('call', target)] }, trust);
      expect(await runRows(ctx.db, record.id)).toEqual([]);
      return failureType(error);
    };
    expect(await refused(hidden.id)).toBe('sub_plan_not_found');
    expect(await refused(redacted.id)).toBe('sub_plan_forbidden');
    expect(await refused(needsAuth.id)).toBe('sub_plan_forbidden');
    expect(await refused(uid('no-such-plan'))).toBe('sub_plan_not_found');
    // A nested sub-plan is checked too: visible -> hidden.
    const outer = await store({ nodes: [callPlan('call_hidden', hidden.id)] });
    expect(await refused(outer.id)).toBe('sub_plan_not_found');

    const { status } = await run({ nodes: [callPlan('call', visible.id)] }, trust);
    expect(status.state).toBe('succeeded');
    // Without a trust context (the CLI's local runs) the same hidden plan runs.
    expect((await run({ nodes: [callPlan('call', hidden.id)] })).status.state).toBe('succeeded');
  }, 90_000);

  it('a run calling a plan the viewer may not run is not shown to that viewer: its node holds the child’s outputs', async () => {
    const secret = await store({ sensitivity: 'high', nodes: [{ id: 'rotate', op: 'echo', params: { password: 'hunter2' } }] });
    const { record, handle, status } = await run({ sensitivity: 'public', nodes: [callPlan('call', secret.id)] });
    expect(byId(status).call?.output).toMatchObject({ outputs: { rotate: { password: 'hunter2' } } });
    const records = createRecordStore(ctx.db);
    const viewer = createRunViewer({ config: ctx.config, client: ctx.client, records, runs: createRunStore(ctx.db) });
    expect(record.sensitivity).toBe('public');
    const anonymous = await viewer.view(handle.workflowId, { max_sensitivity: 'public', authenticated: false }).catch((e: unknown) => e);
    expect(anonymous).toMatchObject({ code: 'not_found' });
    const cleared = await viewer.view(handle.workflowId, { max_sensitivity: 'high', authenticated: true });
    expect(cleared.result?.state).toBe('succeeded');
  });

  it('refuses before starting anything when the starter can look plans up (API, CLI): 404, 403, 422', async () => {
    const trust: TrustContext = { max_sensitivity: 'low', authenticated: false };
    const hidden = await store({ sensitivity: 'high', nodes: [{ id: 'n', op: 'noop' }] });
    const redacted = await store({ sensitivity: 'medium', nodes: [{ id: 'n', op: 'noop' }] });
    const leaf = await store({ nodes: [{ id: 'n', op: 'noop' }] });
    const b = await store({ nodes: [callPlan('call_leaf', leaf.id)] });
    const a = await store({ nodes: [callPlan('call_b', b.id)] });
    await ctx.db.execute(sql`UPDATE memory_records SET payload = ${JSON.stringify({ ...b.payload, nodes: [callPlan('call_a', a.id)] })}::jsonb WHERE id = ${b.id}`);
    const records = createRecordStore(ctx.db);
    const refusal = async (target: string | typeof a) => {
      const record = typeof target === 'string' ? await store({ nodes: [callPlan('call', target)] }) : target;
      const err = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record, trust, records }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DomainError);
      expect(await runRows(ctx.db, record.id)).toEqual([]);
      return [(err as DomainError).code, (err as DomainError).details.type];
    };
    expect(await refusal(hidden.id)).toEqual(['not_found', 'sub_plan_not_found']);
    expect(await refusal(redacted.id)).toEqual(['forbidden', 'sub_plan_forbidden']);
    expect(await refusal(a)).toEqual(['invalid_plan', 'sub_plan_cycle']);
  }, 60_000);
});
