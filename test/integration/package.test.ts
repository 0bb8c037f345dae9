/**
 * The package as a user gets it: `npm pack`, installed into a fresh Node project with no tsx and
 * no sources, whose `plangraph` bin migrates, creates a key, serves the API and runs a worker
 * (on the prebuilt workflow bundle), and whose `plangraph/client` runs a plan through that API.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/net';
import { spawnProgramReady, type ChildHandle } from './fault-processes';
import { createTestContext, uid, type TestContext } from './harness';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

let ctx: TestContext;
let project: string;
const processes: ChildHandle[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  project = mkdtempSync(join(tmpdir(), 'plangraph-consumer-'));
}, 60_000);
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await ctx?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed package works in a plain Node project', () => {
  it('installs without tsx, and its bin and client run a plan end to end', async () => {
    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const tarball = join(project, (JSON.parse(packed) as Array<{ filename: string }>)[0]!.filename);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, maxBuffer: 64 * 1024 * 1024 });

    const installed = join(project, 'node_modules/plangraph');
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'dist/workflow-bundle.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/workflow-bundle-traced.js'))).toBe(true);

    // NODE_OPTIONS cleared: nothing of this repository's loaders may help the installed package.
    const env = {
      NODE_OPTIONS: '',
      DATABASE_URL: ctx.config.DATABASE_URL,
      TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: uid('tq-package'),
      API_HOST: '127.0.0.1',
      API_PORT: String(await freePort()),
    };
    const bin = join(project, 'node_modules/.bin/plangraph');
    await run(bin, ['migrate'], { cwd: project, env: { ...process.env, ...env } });
    const { stdout: key } = await run(bin, ['keys', 'create', '--principal', 'packaged', '--max-sensitivity', 'high'], { cwd: project, env: { ...process.env, ...env } });
    processes.push(await spawnProgramReady(bin, ['worker'], { cwd: project, env, ready: /worker: polling/ }));
    processes.push(await spawnProgramReady(bin, ['api'], { cwd: project, env, ready: /API: http/ }));
    const consoleStyles = await fetch(`http://127.0.0.1:${env.API_PORT}/ui/assets/console.css`);
    expect(consoleStyles.status).toBe(200);

    const script = `
      import { createPlangraphClient } from 'plangraph/client';
      const client = createPlangraphClient({ baseUrl: 'http://127.0.0.1:${env.API_PORT}', apiKey: ${JSON.stringify(key.trim())} });
      const plan = await client.createPlan({
        sensitivity: 'low',
        payload: {
          kind: 'plan_graph', plan_id: 'packaged-echo', intent: 'echo twice from the packaged client',
          nodes: [{ id: 'a', op: 'echo', params: { value: 'hi' } }, { id: 'b', op: 'echo', params: { value: '{{nodes.a.output.value}}' } }],
          edges: [{ from: 'a', to: 'b', kind: 'data' }],
        },
      });
      const answer = await client.submitIntent({ task_descriptor: 'echo', plan_id: plan.record.id, wait: true });
      console.log(JSON.stringify(answer.run));
    `;
    writeFileSync(join(project, 'use-client.mjs'), script);
    const { stdout } = await run(process.execPath, ['use-client.mjs'], { cwd: project, env: { ...process.env, NODE_OPTIONS: '' } });
    const finished = JSON.parse(stdout) as { state: string; result: { nodes: Array<{ id: string; output: unknown }> } };
    expect(finished.state).toBe('succeeded');
    expect(finished.result.nodes.find((n) => n.id === 'b')?.output).toMatchObject({ value: 'hi' });
  }, 600_000);
});
