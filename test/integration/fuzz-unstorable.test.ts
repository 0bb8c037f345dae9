/**
 * Text and numbers Postgres cannot hold as given — NUL characters, lone UTF-16 surrogates,
 * numbers beyond double range, bytes that are not UTF-8 — on every write path: HTTP bodies (episodes, plans), JSONL
 * ingest files, the stores MCP uses, and what activities write (run errors, node outputs).
 */
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestEpisodes } from '../../src/consolidation/ingest-episodes';
import { startPlanRun } from '../../src/runs/start-run';
import { createApiTestContext, errorOf, type ApiTestContext } from './api-harness';
import { byId, metricsOf, settle } from './executor-helpers';
import { uid } from './harness';
import { storePlan } from './plans';

let ctx: ApiTestContext;
beforeAll(async () => {
  ctx = await createApiTestContext();
});
afterAll(() => ctx?.close());

const NUL = '\u0000';
const LONE = '\ud800';

function episode(result: unknown, extra: Record<string, unknown> = {}) {
  return {
    sensitivity: 'public',
    ...extra,
    payload: { kind: 'episodic', outcome: 'success', tool_graph: [{ id: 't1', tool: 'shell', result }] },
  };
}

function plan(intent: string) {
  return { sensitivity: 'public' as const, payload: { kind: 'plan_graph', plan_id: uid('p'), intent, nodes: [{ id: 'a', op: 'noop' }] } };
}

/** Posts raw JSON text or bytes, so the body can hold what JSON.stringify would never write (1e400, Latin-1). */
function postRaw(url: string, text: string | Buffer) {
  return ctx.app.inject({ method: 'POST', url, payload: text, headers: { 'content-type': 'application/json' } });
}

describe('HTTP writes refuse what Postgres cannot hold, with a 400 naming the field', () => {
  const cases: Array<[string, string, unknown, string, RegExp]> = [
    ['NUL in an episode tool result', '/v1/episodes', episode(`ELF${NUL}${NUL}bin`), 'body.payload.tool_graph[0].result', /NUL/],
    ['NUL in an object key', '/v1/episodes', episode({ [`k${NUL}`]: 1 }), 'body.payload.tool_graph[0].result.k\u0000', /key .*NUL/],
    ['lone surrogate in a tag', '/v1/episodes', episode('ok', { tags: [`a${LONE}`] }), 'body.tags[0]', /surrogate/],
    ['lone surrogate in a plan intent', '/v1/plans', plan(`fix ${LONE}`), 'body.payload.intent', /surrogate/],
    ['lone low surrogate in a plan intent', '/v1/plans', plan(`\udc00 fix`), 'body.payload.intent', /surrogate/],
  ];
  it.each(cases)('%s', async (_name, url, body, field, message) => {
    const before = await ctx.count('memory_records');
    const response = await ctx.call('POST', url, body);
    expect(response.statusCode, response.body).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe('bad_request');
    expect(error.details.fields).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect(await ctx.count('memory_records')).toBe(before);
  });

  it('a number beyond double range is refused, never stored as null; one in range is kept exactly', async () => {
    const text = (n: string) => `{"sensitivity":"public","payload":{"kind":"episodic","outcome":"success","tool_graph":[{"id":"t","tool":"x","result":{"n":${n}}}]}}`;
    for (const n of ['1e400', '-1e400']) {
      const response = await postRaw('/v1/episodes', text(n));
      expect(response.statusCode, response.body).toBe(400);
      expect(errorOf(response).details.fields).toEqual([{ field: 'body.payload.tool_graph[0].result.n', message: expect.stringMatching(/range of a double/) }]);
    }
    const kept = await postRaw('/v1/episodes', text('1.7976931348623157e308'));
    expect(kept.statusCode, kept.body).toBe(201);
    const stored = await ctx.services.records.get(kept.json().id);
    expect(stored?.payload.kind === 'episodic' && stored.payload.tool_graph[0]!.result).toEqual({ n: 1.7976931348623157e308 });
  });

  it('a surrogate pair (an emoji) and other control characters are stored and read back exactly', async () => {
    const text = `ok \ud83d\ude00 tab\t bell\u0007 é`;
    const response = await ctx.call('POST', '/v1/episodes', episode(text, { tags: [text] }));
    expect(response.statusCode, response.body).toBe(201);
    const stored = await ctx.services.records.get(response.json().id);
    expect(stored?.tags).toEqual([text]);
    expect(stored?.payload.kind === 'episodic' && stored.payload.tool_graph[0]!.result).toBe(text);
  });

  it('bytes that are not UTF-8 are refused, never stored as U+FFFD; a U+FFFD the sender wrote is kept', async () => {
    const [head, tail] = JSON.stringify(plan('INTENT')).split('INTENT') as [string, string];
    const text = (intent: Buffer) => Buffer.concat([Buffer.from(head), intent, Buffer.from(tail)]);
    const before = await ctx.count('memory_records');
    // "café" as Latin-1, as a client that does not encode in UTF-8 would send it.
    const latin1 = text(Buffer.from('caf\u00e9', 'latin1'));
    const refused = await postRaw('/v1/plans', latin1);
    expect(refused.statusCode, refused.body).toBe(400);
    const offset = latin1.indexOf(0xe9);
    expect(errorOf(refused).details.fields).toEqual([{ field: 'body', message: `is not valid UTF-8: byte ${offset} (0xe9) is not part of a UTF-8 character; send JSON as UTF-8` }]);
    expect(await ctx.count('memory_records')).toBe(before);
    const kept = await postRaw('/v1/plans', text(Buffer.from('caf\u00e9 \ufffd', 'utf8')));
    expect(kept.statusCode, kept.body).toBe(201);
    expect((await ctx.services.records.get(kept.json().record.id))?.payload).toMatchObject({ intent: 'caf\u00e9 \ufffd' });
  });
});

describe('writes outside HTTP (ingest files, the stores MCP calls)', () => {
  it('an ingest file rejects each such line by number and field and stores the good ones', async () => {
    const line = (result: string) => JSON.stringify(episode('x')).replace('"result":"x"', `"result":${result}`);
    const file = [line('"fine"'), line('"a\\u0000b"'), line('"\\udfff"'), line('1e999'), line('"also fine"')].join('\n');
    const before = await ctx.count('memory_records');
    const report = await ingestEpisodes(Readable.from([file]), ctx.services.episodes);
    expect(report.stored).toBe(2);
    expect(report.rejected_lines.map((r) => [r.line, r.problems[0]?.field])).toEqual([
      [2, 'payload.tool_graph[0].result'],
      [3, 'payload.tool_graph[0].result'],
      [4, 'payload.tool_graph[0].result'],
    ]);
    expect(report.rejected_lines.map((r) => r.reason).join(' ')).toMatch(/NUL.*surrogate.*double/);
    expect(await ctx.count('memory_records')).toBe(before + 2);
  });

  it('an ingest file rejects a line that is not UTF-8, naming its bad byte, and keeps the UTF-8 ones exactly', async () => {
    const [head, tail] = JSON.stringify(episode('RESULT')).split('RESULT') as [string, string];
    const line = (result: Buffer) => Buffer.concat([Buffer.from(head), result, Buffer.from(tail)]);
    const latin1 = line(Buffer.from('caf\u00e9', 'latin1'));
    // Bytes in chunks that cut the UTF-8 é of line 3 in two, as a file stream may.
    const file = Buffer.concat([line(Buffer.from('café 1')), Buffer.from('\r\n'), latin1, Buffer.from('\n'), line(Buffer.from('café 3'))]);
    const cut = file.lastIndexOf(Buffer.from('é')) + 1;
    const before = await ctx.count('memory_records');
    const report = await ingestEpisodes(Readable.from([file.subarray(0, cut), file.subarray(cut)]), ctx.services.episodes);
    expect(report.stored).toBe(2);
    expect(report.rejected_lines).toEqual([
      { line: 2, reason: `line is not valid UTF-8: byte ${latin1.indexOf(0xe9)} (0xe9) is not part of a UTF-8 character`, problems: [] },
    ]);
    const stored = await ctx.db.execute(sql`SELECT payload->'tool_graph'->0->>'result' AS result FROM memory_records ORDER BY created_at DESC, id LIMIT 2`);
    expect(stored.rows.map((r) => r.result).sort()).toEqual(['café 1', 'café 3']);
    expect(await ctx.count('memory_records')).toBe(before + 2);
  });

  it('the episode and plan stores refuse it as bad input, not a database error', async () => {
    await expect(ctx.services.episodes.create(episode(NUL))).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/payload\.tool_graph\[0\]\.result: .*NUL/) });
    await expect(ctx.services.revisions.create(plan(`x${LONE}`), { actor: 'test' })).rejects.toMatchObject({ code: 'invalid_plan' });
  });
});

describe('writes made by activities', () => {
  // Postgres gets the NUL losslessly (jsonb-text.ts); Temporal's failure protocol carries only
  // valid Unicode, so the op's lone surrogate arrives as its visible escape, and the worker lives.
  it('a run error holding NUL and a lone surrogate is stored, the worker survives, and the run is counted once', async () => {
    const record = await storePlan(ctx.db, { intent: uid('binary'), nodes: [{ id: 'tool', op: 'unstorable', params: { mode: 'error' } }] });
    const handle = await ctx.withWorker(async () => {
      const started = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
      await settle(started);
      return started;
    });
    const row = await ctx.services.runs.getRun(handle.workflowId);
    expect(row?.status).toBe('failed');
    expect(row?.error).toMatchObject({ message: expect.stringContaining(`printed ${NUL}binary\\ud800 output`) });
    expect((await metricsOf(ctx.db, record.id)).counters).toMatchObject({ failures: 1, successes: 0, latency_samples: 1 });
    const raw = await ctx.db.execute<{ error: unknown }>(sql`SELECT error FROM plan_runs WHERE workflow_id = ${handle.workflowId}`);
    expect(raw.rows[0]!.error).toHaveProperty('$json');
  });

  it('a node output holding Infinity fails the node once with output_not_json instead of arriving as null', async () => {
    const record = await storePlan(ctx.db, { intent: uid('inf'), nodes: [{ id: 'calc', op: 'unstorable', params: { mode: 'infinity' }, policy: { retry: { maximum_attempts: 5 } } }] });
    const { status } = await ctx.withWorker(async () => settle(await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record })));
    expect(status.state).toBe('failed');
    expect(byId(status).calc).toMatchObject({ state: 'failed', attempts: 1, error: { type: 'output_not_json' } });
    expect(byId(status).calc!.error!.message).toMatch(/output\.ratio, which is a number outside the range/);
  });
});
