/**
 * `plangraph history export` and `plangraph replay` end to end: a real run on the test server,
 * exported in the Temporal CLI's JSON shape, replayed by id, by query and from a file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startPlanRun } from '../../src/runs/start-run';
import { createTestContext, type TestContext } from './harness';
import { chain, storePlan } from './plans';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/workflows');

let ctx: TestContext;
let workflowId: string;
let planRecordId: string;
const out = join(mkdtempSync(join(tmpdir(), 'plangraph-history-')), 'run.json');

/** Runs the CLI; resolves with its exit code and output instead of throwing on failure. */
async function plangraph(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS, DATABASE_URL: ctx.config.DATABASE_URL };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  const record = await storePlan(ctx.db, chain(3, 'echo', 'data'));
  planRecordId = record.id;
  await ctx.withWorker(async () => {
    const handle = await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record });
    workflowId = handle.workflowId;
    await handle.result();
  });
});
afterAll(() => ctx?.close());

describe('plangraph history export / replay', () => {
  it('exports the history in exactly the JSON the Temporal CLI prints', async () => {
    const exported = await plangraph('history', 'export', workflowId, '--out', out);
    expect(exported.code).toBe(0);
    const ours = JSON.parse(readFileSync(out, 'utf8'));
    const cli = inject('temporalCliPath');
    if (cli) {
      const { stdout } = await run(cli, ['workflow', 'show', '--output', 'json', '--address', ctx.config.TEMPORAL_ADDRESS, '--workflow-id', workflowId]);
      expect(ours).toEqual(JSON.parse(stdout));
    }
    expect(ours.events[0].eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED');
  });

  it('replays a run by workflow id and by PlanId query, and an exported file', async () => {
    const events = JSON.parse(readFileSync(out, 'utf8')).events.length;
    const byId = await plangraph('replay', workflowId);
    expect(byId).toMatchObject({ code: 0, stdout: `replay ok (${events} events)\n` });

    // Visibility is eventually consistent: wait (with a deadline) until the closed run is listed.
    const query = `PlanId='${planRecordId}' AND ExecutionStatus != 'Running'`;
    const deadline = Date.now() + 10_000;
    while ((await ctx.client.workflow.count(query)).count === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const byQuery = await plangraph('replay', '--all', '--query', `PlanId='${planRecordId}'`);
    expect(byQuery.code).toBe(0);
    expect(byQuery.stdout).toContain(`${workflowId} (`);
    expect(byQuery.stdout).toContain('replayed 1 run: 1 ok, 0 failed');

    expect(await plangraph('replay', '--file', out)).toMatchObject({ code: 0, stdout: `replay ok (${events} events)\n` });
  });

  it('exits non-zero and names the event when the code no longer matches the history', async () => {
    const result = await plangraph(
      'replay',
      '--file',
      join(FIXTURES, 'greeting-v1.history.json'),
      '--workflows',
      join(FIXTURES, 'greeting-v2-unpatched.ts'),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('replay FAILED: nondeterminism at event 5 (ActivityTaskScheduled activity "1" type "greet")');
  });

  it('refuses ambiguous or unknown targets with one line', async () => {
    expect(await plangraph('replay', workflowId, '--file', out)).toMatchObject({ code: 1, stderr: expect.stringContaining('give exactly one of') });
    expect(await plangraph('replay', 'no-such-workflow')).toMatchObject({ code: 1, stderr: expect.stringContaining('no workflow run no-such-workflow') });
  });
});
