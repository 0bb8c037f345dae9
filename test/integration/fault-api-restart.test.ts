/**
 * Fault: the API process is SIGKILLed while it handles an intent submission carrying an
 * idempotency key, then restarted; the client resubmits. However the crash falls, there is
 * never a second run: one workflow execution with that id, one run row.
 */
import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../src/domain/principal';
import type { IntentResponse } from '../../src/intents/schemas';
import { idempotentWorkflowId } from '../../src/intents/submit-intent';
import { freePort } from '../../src/net';
import { until } from './executor-helpers';
import { spawnReady, type ChildHandle } from './fault-processes';
import { createTestContext, uid, type TestContext } from './harness';
import { storePlan } from './plans';

let ctx: TestContext;
let port: number;
const apis: ChildHandle[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  port = await freePort();
});
afterAll(async () => {
  await Promise.all(apis.map((api) => api.kill('SIGKILL')));
  await ctx?.close();
});

async function startApi(): Promise<ChildHandle> {
  const api = await spawnReady(
    ['src/cli/main.ts', 'api'],
    {
      DATABASE_URL: ctx.config.DATABASE_URL,
      TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: ctx.taskQueue,
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
    },
    /API: http/,
  );
  apis.push(api);
  return api;
}

/** Sends a submission; resolves once the request is on the wire, with the (maybe never) answer. */
function send(body: unknown): { sent: Promise<void>; answer: Promise<{ status: number; body: string } | Error> } {
  let sent!: () => void;
  const onSent = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<{ status: number; body: string } | Error>((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/intents', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', resolve);
    });
    req.on('error', resolve);
    req.on('finish', sent);
    req.end(JSON.stringify(body));
  });
  return { sent: onSent, answer };
}

async function submit(body: unknown): Promise<IntentResponse> {
  const answer = await send(body).answer;
  if (answer instanceof Error) throw answer;
  expect(answer.status, answer.body).toBe(202);
  return JSON.parse(answer.body) as IntentResponse;
}

/** Executions Temporal has under a workflow id (closed or not), from visibility. */
async function executionsOf(workflowId: string): Promise<number> {
  let n = 0;
  for await (const _ of ctx.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) n += 1;
  return n;
}

async function runRowsOf(workflowId: string) {
  return (await ctx.db.execute<{ run_id: string; status: string }>(sql`SELECT run_id, status FROM plan_runs WHERE workflow_id = ${workflowId}`)).rows;
}

describe('fault: API restarted during an idempotent submission', () => {
  it('never starts two runs for one idempotency key, wherever the crash falls', async () => {
    const record = await storePlan(ctx.db, { intent: uid('restart'), sensitivity: 'public', nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'noop' }], edges: [{ from: 'a', to: 'b', kind: 'control' }] });
    const body = (key: string) => ({ task_descriptor: 'restart test', plan_id: record.id, idempotency_key: key, inputs: { n: 1 } });
    const early = uid('early');
    const late = uid('late');

    await ctx.withWorker(async () => {
      // Crash 1: killed the moment the request is on the wire, before it could answer.
      let api = await startApi();
      const first = send(body(early));
      await first.sent;
      await api.kill('SIGKILL');
      expect(await first.answer).toBeInstanceOf(Error);

      // Restarted: the resubmission and two racing duplicates all get one and the same run.
      api = await startApi();
      const answers = await Promise.all([submit(body(early)), submit(body(early)), submit(body(early))]);
      expect(new Set(answers.map((a) => `${a.workflow_id}/${a.run_id}`)).size).toBe(1);
      expect(answers[0]!.workflow_id).toBe(idempotentWorkflowId(ANONYMOUS, early));

      // Crash 2: killed once the run exists, i.e. after the start and around the answer.
      const second = send(body(late));
      const lateId = idempotentWorkflowId(ANONYMOUS, late);
      const started = await until(() => ctx.client.workflow.getHandle(lateId).describe().then((d) => d.runId, () => undefined), Boolean, 'the late run to start');
      await api.kill('SIGKILL');
      await second.answer;
      await startApi();
      const again = await submit(body(late));
      expect(again).toMatchObject({ workflow_id: lateId, run_id: started, existing: true });

      for (const key of [early, late]) {
        const workflowId = idempotentWorkflowId(ANONYMOUS, key);
        await ctx.client.workflow.getHandle(workflowId).result();
        expect(await until(() => executionsOf(workflowId), (n) => n > 0, `${workflowId} in visibility`)).toBe(1);
        const rows = await runRowsOf(workflowId);
        expect(rows).toHaveLength(1);
        expect(rows[0]!.status).toBe('succeeded');
      }
    });
  });
});
