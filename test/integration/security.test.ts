/**
 * Security at the boundaries: API keys and secrets never reach the logs, and the HTTP op only
 * calls hosts HTTP_OP_ALLOWED_HOSTS lists — not even through a redirect.
 */
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/store/api-keys';
import { buildApi } from '../../src/api/server';
import { startPlanRun } from '../../src/runs/start-run';
import { createApiTestContext, type ApiTestContext } from './api-harness';
import { byId, settle, until } from './executor-helpers';
import { uid } from './harness';
import { storePlan } from './plans';
import { runCli } from './cli-process';

const SECRET = `sk-embedding-${uid('secret')}`;
let ctx: ApiTestContext;
beforeAll(async () => {
  ctx = await createApiTestContext({ LOG_LEVEL: 'debug', EMBEDDING_API_KEY: SECRET });
});
afterAll(() => ctx?.close());

/** A log stream for buildApi and what was written to it. */
function capturedLog() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('security: secrets are never logged', () => {
  it('logs authenticated, rejected and failing requests without the key, its hash or other secrets', async () => {
    const log = capturedLog();
    const app = await buildApi(ctx.services, { logger: true, logStream: log.stream });
    const key = await ctx.key('auditor', 'high');
    const requests = [
      { method: 'GET' as const, url: '/v1/plans', headers: { authorization: `Bearer ${key}` } },
      { method: 'GET' as const, url: '/v1/plans', headers: { 'x-api-key': key } },
      { method: 'POST' as const, url: '/v1/retrieve', headers: { authorization: `Bearer ${key}` }, payload: { task_descriptor: 'x', trust: { max_sensitivity: 'high', authenticated: true } } },
      { method: 'POST' as const, url: '/v1/episodes', headers: { authorization: `Bearer ${key}` }, payload: { payload: { kind: 'nonsense' } } },
      { method: 'GET' as const, url: '/v1/plans', headers: { authorization: `Bearer ${key}x` } },
      { method: 'GET' as const, url: `/v1/plans?api_key=${key}`, headers: {} },
    ];
    const statuses = [];
    for (const request of requests) statuses.push((await app.inject(request)).statusCode);
    await app.close();
    // A key in the query is an unknown parameter (400), and still never logged.
    expect(statuses).toEqual([200, 200, 200, 400, 401, 400]);
    // The logger did log each request, so the absence below means something.
    expect(log.text().match(/incoming request/g)?.length).toBe(requests.length);
    for (const secret of [key, hashKey(key), hashKey(`${key}x`), SECRET]) expect(log.text()).not.toContain(secret);
    expect(log.text()).toContain('/v1/plans?api_key=…');
  });

  it('with request logging off (plangraph dev, api) still logs an unhandled error\'s cause, and nothing else', async () => {
    const log = capturedLog();
    const app = await buildApi(ctx.services, { logStream: log.stream });
    app.get('/v1/test-only-failure', () => {
      throw new Error('the cause an operator needs');
    });
    expect((await app.inject({ method: 'GET', url: '/v1/plans' })).statusCode).toBe(200);
    const failed = await app.inject({ method: 'GET', url: '/v1/test-only-failure' });
    await app.close();
    expect(failed.json()).toEqual({ error: { code: 'internal', message: 'internal error', details: {} } });
    expect(log.text()).toContain('the cause an operator needs');
    expect(log.text()).not.toContain('incoming request');
  });
});

describe('security: the HTTP op honours HTTP_OP_ALLOWED_HOSTS', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/slow') {
        // Never answers: only the client going away ends the request.
        req.on('close', () => hits.push('/slow closed'));
        return;
      }
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://localhost:${(server.address() as { port: number }).port}/secret` });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));

  async function runHttp(path: string, allowedHosts: string[]) {
    const record = await storePlan(ctx.db, { intent: uid('http'), nodes: [{ id: 'call', op: 'http_request', params: { url: `${base}${path}` } }] });
    return ctx.withWorker(async () => settle(await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record })), { HTTP_OP_ALLOWED_HOSTS: allowedHosts });
  }

  it('stops a request when its run is cancelled: the op heartbeats, so the cancellation reaches it', async () => {
    const record = await storePlan(ctx.db, {
      intent: uid('http-cancel'),
      nodes: [{ id: 'call', op: 'http_request', params: { url: `${base}/slow`, timeout_ms: 120_000 } }],
    });
    await ctx.withWorker(async () => {
      const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
      const seen = (hit: string) => until(async () => hits.includes(hit), Boolean, hit);
      await seen('/slow');
      await handle.cancel();
      // Without heartbeats the request would run on for its 120 s timeout.
      await seen('/slow closed');
      expect((await settle(handle)).status.state).toBe('cancelled');
    });
  });

  it('calls a listed host', async () => {
    const { status } = await runHttp('/ok', ['127.0.0.1']);
    expect(status.state).toBe('succeeded');
    expect(byId(status).call!.output).toMatchObject({ status: 200, body: { path: '/ok' } });
    expect(hits).toContain('/ok');
  });

  it('refuses an unlisted host non-retryably, without sending a request', async () => {
    const before = hits.length;
    const { status } = await runHttp('/refused', ['api.example.com']);
    expect(status.state).toBe('failed');
    expect(byId(status).call).toMatchObject({ state: 'failed', attempts: 1, error: { type: 'host_not_allowed' } });
    expect(hits.length).toBe(before);
  });

  it('does not follow a redirect from a listed host to an unlisted one', async () => {
    const before = hits.length;
    const { status } = await runHttp('/redirect', ['127.0.0.1']);
    expect(byId(status).call!.output).toMatchObject({ status: 302, headers: { location: expect.stringContaining('localhost') } });
    expect(hits.slice(before)).toEqual(['/redirect']);
  });
});

describe('security: a stored level off the sensitivity scale fails closed', () => {
  it('a row written around the API with an unknown sensitivity is shown to no one, not even hyper', async () => {
    const intent = uid('offscale');
    const plan = await storePlan(ctx.services.records, { intent, nodes: [{ id: 'a', op: 'noop' }], sensitivity: 'public' });
    // What a manual fix or a bad migration could leave behind: a level the scale does not know, rank 0.
    await ctx.services.db.$client.query(`UPDATE memory_records SET sensitivity = 'secret', sensitivity_rank = 0 WHERE id = $1`, [plan.id]);
    const key = await ctx.key('hyper-reader', 'hyper');

    const shown = await ctx.call('GET', `/v1/plans/${plan.id}`, undefined, key);
    const listed = await ctx.call('GET', `/v1/plans?intent=${intent}`, undefined, key);
    const retrieved = await ctx.call('POST', '/v1/retrieve', { task_descriptor: intent, trust: { max_sensitivity: 'hyper', authenticated: true } }, key);

    expect(shown.statusCode).toBe(404);
    expect(listed.json().items.map((r: { id: string }) => r.id)).not.toContain(plan.id);
    expect(retrieved.json().candidates.map((c: { record: { id: string } }) => c.record.id)).not.toContain(plan.id);
  });
});

describe('security: API keys are listed and revoked from the CLI', () => {
  it('keys list shows a key without its secret; keys revoke makes it a 401 at once, idempotently', async () => {
    const principal = uid('revocable');
    const { stdout } = await runCli(ctx, 'keys', 'create', '--principal', principal, '--max-sensitivity', 'low', '--scope', 'team-a');
    const key = stdout.trim();
    expect((await ctx.call('GET', '/v1/whoami', undefined, key)).json()).toMatchObject({ name: principal, max_sensitivity: 'low' });

    const listed = JSON.parse((await runCli(ctx, 'keys', 'list', '--json')).stdout) as Array<{ id: string; principal: string; scopes: string[]; revoked_at: string | null }>;
    const row = listed.find((r) => r.principal === principal)!;
    expect(row).toMatchObject({ max_sensitivity: 'low', scopes: ['team-a'], revoked_at: null });
    expect(JSON.stringify(listed)).not.toContain(key);

    const revoked = await runCli(ctx, 'keys', 'revoke', row.id);
    expect(revoked.stderr).toMatch(new RegExp(`API key ${row.id} revoked at \\S+`));
    const refused = await ctx.call('GET', '/v1/whoami', undefined, key);
    expect(refused.statusCode).toBe(401);
    expect((await runCli(ctx, 'keys', 'revoke', row.id)).stderr).toBe(revoked.stderr);

    await expect(runCli(ctx, 'keys', 'revoke', '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('no API key with id') });
    await expect(runCli(ctx, 'keys', 'revoke', 'my-agent')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('<id> must be a key id') });
    // A key must act as someone: its writes record the name as their actor.
    const keysBefore = (JSON.parse((await runCli(ctx, 'keys', 'list', '--json')).stdout) as unknown[]).length;
    await expect(runCli(ctx, 'keys', 'create', '--principal', ' ', '--max-sensitivity', 'low')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--principal must name who the key acts as: the name is blank') });
    expect(JSON.parse((await runCli(ctx, 'keys', 'list', '--json')).stdout)).toHaveLength(keysBefore);
  }, 120_000);
});
