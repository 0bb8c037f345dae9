/**
 * Fault: the worker process is SIGKILLed while a run's nodes are running. A new worker picks the
 * run up; it completes, nodes finished before the kill keep their results and never run again,
 * and the plan's metrics count the run exactly once.
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusQuery, type RunStatus } from '../../src/domain/run-state';
import { startPlanRun } from '../../src/runs/start-run';
import { byId, metricsOf, runRows, until } from './executor-helpers';
import { spawnWorker, type ChildHandle } from './fault-processes';
import { createTestContext, TEST_OPS_MODULE, uid, type TestContext } from './harness';
import { storePlan } from './plans';

let ctx: TestContext;
const workers: ChildHandle[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await ctx?.close();
});

async function startWorkerProcess(): Promise<ChildHandle> {
  const worker = await spawnWorker({
    DATABASE_URL: ctx.config.DATABASE_URL,
    TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: ctx.taskQueue,
    OPS_MODULES: TEST_OPS_MODULE,
  });
  workers.push(worker);
  return worker;
}

/** How many times each node of a workflow started, from the `logged` op's file. */
function executions(file: string, workflowId: string): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!existsSync(file)) return counts;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [wf, node] = line.split('\t');
    if (wf === workflowId && node) counts[node] = (counts[node] ?? 0) + 1;
  }
  return counts;
}

describe('fault: worker killed mid-run', () => {
  it('completes on a new worker without re-running finished nodes, counted once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plangraph-kill-')), 'executions.tsv');
    // Heartbeats every few hundred ms with a 2 s timeout, so the killed attempt is retried quickly.
    const policy = { heartbeat_timeout: '2s', retry: { maximum_attempts: 5, initial_interval: '200ms' } };
    const node = (id: string, ms: number) => ({ id, op: 'logged', params: { file, ms }, policy });
    const record = await storePlan(ctx.db, {
      intent: uid('kill'),
      nodes: [node('first', 200), node('second', 200), node('side', 200), node('long', 4_000), node('last', 200)],
      edges: [
        { from: 'first', to: 'second', kind: 'data' },
        { from: 'second', to: 'side', kind: 'data' },
        { from: 'second', to: 'long', kind: 'data' },
        { from: 'long', to: 'last', kind: 'data' },
        { from: 'side', to: 'last', kind: 'data' },
      ],
    });

    const firstWorker = await startWorkerProcess();
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
    const beforeKill: RunStatus = await until(
      () => handle.query(statusQuery),
      (s) => byId(s).long?.state === 'running' && byId(s).side?.state === 'succeeded',
      'first, second and side to finish while long runs',
    );
    await firstWorker.kill('SIGKILL');
    expect(firstWorker.child.signalCode).toBe('SIGKILL');
    const finishedBeforeKill = beforeKill.nodes.filter((n) => n.state === 'succeeded').map((n) => n.id);
    expect(finishedBeforeKill.sort()).toEqual(['first', 'second', 'side']);

    await startWorkerProcess();
    const result = await handle.result();

    expect(result.state).toBe('succeeded');
    expect(Object.values(byId(result)).map((n) => n.state)).toEqual(Array(5).fill('succeeded'));
    const counts = executions(file, handle.workflowId);
    for (const id of finishedBeforeKill) {
      expect(counts[id], `${id} executions`).toBe(1);
      // The result recorded before the kill is the one the run keeps.
      expect(byId(result)[id]!.output).toEqual(byId(beforeKill)[id]!.output);
    }
    // The node the kill interrupted ran again, on the new worker.
    expect(counts.long).toBe(2);
    expect(byId(result).long!.output).toMatchObject({ attempt: 2 });
    expect(counts.last).toBe(1);

    const rows = await runRows(ctx.db, record.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workflow_id: handle.workflowId, status: 'succeeded' });
    expect(await metricsOf(ctx.db, record.id)).toMatchObject({ execution_count: 1, failure_rate: 0, counters: { successes: 1, failures: 0, latency_samples: 1 } });
  });
});
