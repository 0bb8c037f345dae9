/**
 * Horizontal scale and shutdown with real processes: a worker told to stop (SIGTERM) finishes
 * the activities it is running before it exits; two workers and two API processes share one
 * task queue and one database, and killing one worker under load loses no run and counts none
 * twice.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusQuery, type RunStatus } from '../../src/domain/run-state';
import { freePort } from '../../src/net';
import { startPlanRun } from '../../src/runs/start-run';
import { byId, metricsOf, runRows, until } from './executor-helpers';
import { spawnReady, spawnWorker, type ChildHandle } from './fault-processes';
import { createTestContext, TEST_OPS_MODULE, uid, type TestContext } from './harness';
import { storePlan } from './plans';

let ctx: TestContext;
const processes: ChildHandle[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGKILL')));
  await ctx?.close();
});

async function startWorkerProcess(): Promise<ChildHandle> {
  const worker = await spawnWorker({ DATABASE_URL: ctx.config.DATABASE_URL, TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE: ctx.taskQueue, OPS_MODULES: TEST_OPS_MODULE });
  processes.push(worker);
  return worker;
}

async function startApiProcess(port: number): Promise<ChildHandle> {
  const api = await spawnReady(
    ['src/cli/main.ts', 'api'],
    { DATABASE_URL: ctx.config.DATABASE_URL, TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE: ctx.taskQueue, OPS_MODULES: TEST_OPS_MODULE, API_HOST: '127.0.0.1', API_PORT: String(port) },
    /API: http/,
  );
  processes.push(api);
  return api;
}

interface Execution {
  workflowId: string;
  node: string;
  attempt: number;
  pid: number;
}

/** Every start of a `logged` node, from its file. */
function executions(file: string): Execution[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [workflowId, node, attempt, pid] = line.split('\t');
      return { workflowId: workflowId!, node: node!, attempt: Number(attempt), pid: Number(pid) };
    });
}

// Heartbeats every 100 ms with a 2 s timeout, so an attempt lost with its worker is retried soon.
const policy = { heartbeat_timeout: '2s', retry: { maximum_attempts: 5, initial_interval: '200ms' } };

describe('graceful shutdown', () => {
  it('SIGTERM lets the running activity finish before the worker exits; it is not run again', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plangraph-drain-')), 'executions.tsv');
    const record = await storePlan(ctx.db, {
      intent: uid('drain'),
      nodes: [{ id: 'slow', op: 'logged', params: { file, ms: 3_000 }, policy }, { id: 'after', op: 'logged', params: { file }, policy }],
      edges: [{ from: 'slow', to: 'after', kind: 'data' }],
    });
    const worker = await startWorkerProcess();
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
    await until(() => handle.query(statusQuery), (s: RunStatus) => byId(s).slow?.state === 'running', 'slow to start');
    const signalled = Date.now();
    await worker.kill('SIGTERM');
    const exitedAfterMs = Date.now() - signalled;

    // The attempt finished and was reported before the exit: nothing failed or timed out.
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((e) => e.activityTaskCompletedEventAttributes)).toHaveLength(1);
    expect(events.filter((e) => e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes)).toHaveLength(0);
    expect(exitedAfterMs).toBeGreaterThan(1_500);
    expect(worker.child.exitCode).toBe(0);

    const successor = await startWorkerProcess();
    const result = await handle.result();
    await successor.kill('SIGTERM');
    expect(result.state).toBe('succeeded');
    expect(byId(result).slow!.output).toMatchObject({ attempt: 1 });
    expect(executions(file).filter((e) => e.node === 'slow')).toHaveLength(1);
  });
});

describe('two workers and two API processes on one task queue and database', () => {
  it('a worker killed under load loses no run and counts none twice', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plangraph-scale-')), 'executions.tsv');
    const nodes = ['a', 'b', 'c'].map((id) => ({ id, op: 'logged', params: { file, ms: 300 }, policy }));
    const record = await storePlan(ctx.db, {
      intent: uid('scale'),
      sensitivity: 'public',
      nodes,
      edges: [{ from: 'a', to: 'b', kind: 'data' }, { from: 'b', to: 'c', kind: 'data' }],
    });
    const [doomed] = await Promise.all([startWorkerProcess(), startWorkerProcess()]);
    const ports = [await freePort(), await freePort()];
    await Promise.all(ports.map((port) => startApiProcess(port)));

    const runs = 30;
    const submit = async (i: number) => {
      const response = await fetch(`http://127.0.0.1:${ports[i % 2]}/v1/intents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ task_descriptor: 'scale', plan_id: record.id, idempotency_key: uid('k') }),
      });
      expect(response.status, await response.clone().text()).toBe(202);
      return ((await response.json()) as { workflow_id: string }).workflow_id;
    };
    const first = await Promise.all(Array.from({ length: runs / 2 }, (_, i) => submit(i)));
    await until(async () => executions(file).length, (n) => n >= runs / 2, 'the first runs to be under way');
    await doomed!.kill('SIGKILL');
    const second = await Promise.all(Array.from({ length: runs / 2 }, (_, i) => submit(runs / 2 + i)));
    const workflowIds = [...first, ...second];
    expect(new Set(workflowIds).size).toBe(runs);

    const results = await Promise.all(workflowIds.map((id) => ctx.client.workflow.getHandle(id).result() as Promise<RunStatus>));
    expect(results.map((r) => r.state)).toEqual(Array(runs).fill('succeeded'));

    const log = executions(file);
    expect(new Set(log.map((e) => e.pid)).size).toBe(2);
    for (const id of workflowIds) {
      for (const node of ['a', 'b', 'c']) {
        const starts = log.filter((e) => e.workflowId === id && e.node === node);
        // At least once; a second start only for an attempt the kill interrupted.
        expect(starts.length, `${id} ${node}`).toBeGreaterThanOrEqual(1);
        expect(starts.filter((e) => e.pid !== doomed!.child.pid).length, `${id} ${node} on the survivor`).toBeLessThanOrEqual(1);
      }
    }
    const rows = await runRows(ctx.db, record.id);
    expect(rows.map((r) => r.workflow_id).sort()).toEqual([...workflowIds].sort());
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: runs, counters: { successes: runs, failures: 0, latency_samples: runs } });
  });
});
