import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/api/server';
import { ingestEpisodes } from '../../src/consolidation/ingest-episodes';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { createServices, type Services } from '../../src/services';
import { createEpisodeStore } from '../../src/store/episodes';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
let services: Services;
let api: FastifyInstance;
beforeAll(async () => {
  ctx = await createTestContext();
  services = await createServices(ctx.config);
  api = await buildApi(services);
});
afterAll(async () => {
  await api?.close();
  await services?.close();
  await ctx?.close();
});

const episodeLine = (tag: string, tools = 2) =>
  JSON.stringify({
    tags: [tag],
    payload: {
      kind: 'episodic',
      timeline: [{ t: '2025-01-01T00:00:00Z', event_kind: 'ingest_test' }],
      tool_graph: Array.from({ length: tools }, (_, i) => ({ id: `n${i}`, tool: `${tag}_tool`, depends_on: i ? [`n${i - 1}`] : [] })),
      outcome: 'success',
    },
  });

async function storedWithTag(tag: string): Promise<number> {
  const result = await ctx.db.execute(sql`SELECT 1 FROM memory_records WHERE type = 'episodic' AND ${tag} = ANY(tags)`);
  return result.rows.length;
}

describe('POST /v1/episodes', () => {
  const bearer = async (clearance: 'low' | 'medium', scopes?: string[]) =>
    ({ authorization: `Bearer ${(await services.apiKeys.create(uid('agent'), clearance, scopes)).key}` });

  it('stores one episode and answers 201 with the record', async () => {
    const tag = uid('api');
    const response = await api.inject({ method: 'POST', url: '/v1/episodes', payload: JSON.parse(episodeLine(tag, 3)), headers: await bearer('low') });
    expect(response.statusCode).toBe(201);
    const record = response.json();
    expect(record).toMatchObject({ type: 'episodic', tags: [tag], sensitivity: 'low', payload: { kind: 'episodic', outcome: 'success' } });
    expect(record.payload.tool_graph).toHaveLength(3);
    expect(await storedWithTag(tag)).toBe(1);
    const audit = await ctx.db.execute<{ action: string }>(sql`SELECT action FROM audit_log WHERE record_id = ${record.id}`);
    expect(audit.rows.map((r) => r.action)).toEqual(['create']);
  });

  it('refuses (403) an episode above the caller\'s clearance or outside its scopes, storing nothing: consolidation would make it a plan', async () => {
    const tag = uid('forbidden');
    const episode = (extra: Record<string, unknown>) => ({ ...JSON.parse(episodeLine(tag, 3)), ...extra });
    const anonymous = await api.inject({ method: 'POST', url: '/v1/episodes', payload: episode({}) });
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().error).toMatchObject({ code: 'forbidden', message: 'cannot write a "low" episode with clearance "public"', details: { field: 'sensitivity' } });
    const above = await api.inject({ method: 'POST', url: '/v1/episodes', payload: episode({ sensitivity: 'hyper' }), headers: await bearer('medium') });
    expect(above.statusCode).toBe(403);
    const otherScope = await api.inject({ method: 'POST', url: '/v1/episodes', payload: episode({ scope: 'team-b' }), headers: await bearer('low', ['team-a']) });
    expect(otherScope.statusCode).toBe(403);
    expect(otherScope.json().error.details).toEqual({ field: 'scope' });
    expect(await storedWithTag(tag)).toBe(0);
    const ownScope = await api.inject({ method: 'POST', url: '/v1/episodes', payload: episode({ scope: 'team-a', sensitivity: 'public' }), headers: await bearer('low', ['team-a']) });
    expect(ownScope.statusCode).toBe(201);
  });

  it('answers 400 naming every bad field, and stores nothing', async () => {
    const tag = uid('bad');
    const body = JSON.parse(episodeLine(tag, 2));
    body.sensitivity = 'top-secret';
    body.payload.outcome = 'maybe';
    const response = await api.inject({ method: 'POST', url: '/v1/episodes', payload: body });
    expect(response.statusCode).toBe(400);
    const fields = response.json().error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['body.sensitivity', 'body.payload.outcome']));

    // Instants a Date or Postgres cannot hold would make the learned plan's latency nonsense.
    for (const t of [1e20, 1.5, '0000-01-01T00:00:00Z']) {
      const badTime = JSON.parse(episodeLine(tag, 2));
      badTime.payload.timeline[0].t = t;
      const refused = await api.inject({ method: 'POST', url: '/v1/episodes', payload: badTime });
      expect(refused.statusCode, String(t)).toBe(400);
      expect(refused.json().error.details.fields.map((f: { field: string }) => f.field)).toContain('body.payload.timeline[0].t');
    }

    const dangling = JSON.parse(episodeLine(tag, 2));
    dangling.payload.tool_graph[1].depends_on = ['ghost'];
    const second = await api.inject({ method: 'POST', url: '/v1/episodes', payload: dangling });
    expect(second.statusCode).toBe(400);
    expect(second.json().error.details.fields).toEqual([{ field: 'body.payload.tool_graph[1].depends_on[0]', message: 'no tool node "ghost" in tool_graph' }]);
    expect(await storedWithTag(tag)).toBe(0);
  });
});

describe('idempotent storing', () => {
  const post = (payload: Record<string, unknown>, headers: Record<string, string>) => api.inject({ method: 'POST', url: '/v1/episodes', payload, headers });
  const keyed = (tag: string, key: string, tools = 3): Record<string, unknown> => ({ ...JSON.parse(episodeLine(tag, tools)), idempotency_key: key });

  it('stores an episode once per key and principal: a retry gets 200 with the stored episode, another episode under the key 409', async () => {
    const tag = uid('retry');
    const key = uid('key');
    const agent = { authorization: `Bearer ${(await services.apiKeys.create(uid('agent'), 'low')).key}` };
    const first = await post(keyed(tag, key), agent);
    expect(first.statusCode).toBe(201);
    const retry = await post(keyed(tag, key), agent);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());

    const other = await post(keyed(tag, key, 4), agent);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatchObject({ code: 'conflict', details: { field: 'idempotency_key', existing_id: first.json().id } });
    expect(await storedWithTag(tag)).toBe(1);
    const audit = await ctx.db.execute<{ action: string }>(sql`SELECT action FROM audit_log WHERE record_id = ${first.json().id}`);
    expect(audit.rows).toHaveLength(1);

    // The same key as an `Idempotency-Key` header is the same request; both ways at once with different keys is a 400.
    const { idempotency_key: _key, ...unkeyed } = keyed(tag, key);
    const viaHeader = await post(unkeyed, { ...agent, 'idempotency-key': key });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json()).toEqual(first.json());
    const clash = await post(keyed(tag, key), { ...agent, 'idempotency-key': uid('other') });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().error.details.fields).toEqual([{ field: 'headers.idempotency-key', message: 'differs from body.idempotency_key; send the key once' }]);
    expect(await storedWithTag(tag)).toBe(1);

    // Keys are per principal: another agent's key of the same name is its own.
    const stranger = { authorization: `Bearer ${(await services.apiKeys.create(uid('agent'), 'low')).key}` };
    expect((await post(keyed(tag, key, 4), stranger)).statusCode).toBe(201);
    expect(await storedWithTag(tag)).toBe(2);
  });

  it('stores one episode when retries under one key race', async () => {
    const tag = uid('race');
    const key = uid('key');
    const agent = { authorization: `Bearer ${(await services.apiKeys.create(uid('agent'), 'low')).key}` };
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(keyed(tag, key), agent)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await storedWithTag(tag)).toBe(1);
  });

  it('ingests keyed lines once; with keyByContent (--dedupe) a file ingested again stores nothing twice', async () => {
    const tag = uid('again');
    const key = uid('key');
    const lines = [episodeLine(tag, 3), episodeLine(tag, 4), JSON.stringify(keyed(tag, key, 5)), episodeLine(tag, 3)];
    const store = createEpisodeStore(ctx.db, hashEmbedder);
    const first = await ingestEpisodes(Readable.from(lines.join('\n')), store, { keyByContent: true });
    // The repeated line is the same episode: stored once.
    expect(first).toMatchObject({ lines: 4, stored: 3, existing: 1, rejected: 0 });
    const again = await ingestEpisodes(Readable.from([...lines, JSON.stringify(keyed(tag, key, 6))].join('\n')), store, { batchSize: 2, keyByContent: true });
    expect(again).toMatchObject({ lines: 5, stored: 0, existing: 4, rejected: 1 });
    expect(again.rejected_lines[0]).toMatchObject({ line: 5, problems: [{ field: 'idempotency_key' }] });
    expect(again.rejected_lines[0]!.reason).toMatch(new RegExp(`^idempotency_key: "${key}" already stored a different episode`));
    expect(await storedWithTag(tag)).toBe(3);

    // By default identical lines are separate executions; a keyed line is still stored once.
    const plain = uid('plain');
    const keyedTwice = JSON.stringify(keyed(plain, uid('key')));
    const report = await ingestEpisodes(Readable.from([episodeLine(plain), episodeLine(plain), keyedTwice, keyedTwice].join('\n')), store);
    expect(report).toMatchObject({ stored: 3, existing: 1, rejected: 0 });
  });
});

describe('bulk ingestion', () => {
  it('stores the valid lines and reports each rejected line with its number and reason', async () => {
    const good = uid('good');
    const bad = uid('bad');
    const lines = [
      episodeLine(good),
      '{"payload": {"kind": "episodic", ',
      JSON.stringify({ tags: [bad], payload: { kind: 'episodic', outcome: 'done' } }),
      '',
      episodeLine(good, 3),
      JSON.stringify({ tags: [bad], payload: { kind: 'episodic', outcome: 'success', tool_graph: [{ id: 'a' }] } }),
      episodeLine(good, 4),
    ];
    const progress: number[] = [];
    const report = await ingestEpisodes(Readable.from(lines.join('\n')), createEpisodeStore(ctx.db, hashEmbedder), {
      batchSize: 2,
      onProgress: (p) => progress.push(p.stored),
    });
    expect(report).toMatchObject({ lines: 7, stored: 3, rejected: 3 });
    expect(report.rejected_lines.map((r) => r.line)).toEqual([2, 3, 6]);
    expect(report.rejected_lines[0]!.reason).toMatch(/^malformed JSON/);
    expect(report.rejected_lines[1]!.problems.map((p) => p.field)).toEqual(['payload.outcome']);
    expect(report.rejected_lines[2]!.problems.map((p) => p.field)).toEqual(['payload.tool_graph[0].tool']);
    // One report per stored batch (2 + 1), none repeated at the end.
    expect(progress).toEqual([2, 3]);
    expect(await storedWithTag(good)).toBe(3);
    expect(await storedWithTag(bad)).toBe(0);
  });

  it('runs as `plangraph episodes ingest FILE.jsonl`, exiting 1 with the rejected lines on stderr', async () => {
    const good = uid('cli');
    const file = join(mkdtempSync(join(tmpdir(), 'ingest-')), 'episodes.jsonl');
    writeFileSync(file, [episodeLine(good), 'not json', episodeLine(good, 4)].join('\n') + '\n');
    const root = resolve(import.meta.dirname, '../..');
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'episodes', 'ingest', file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: ctx.config.DATABASE_URL },
    });
    const failure = await run.then(
      () => undefined,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/line 2: malformed JSON/);
    expect(failure?.stdout).toMatch(/stored 2 episodes, 0 already stored, rejected 1 lines/);
    expect(await storedWithTag(good)).toBe(2);
  });
});
