/**
 * `plangraph dev` takes the Temporal dev server it started down with it, however it is told to
 * stop: one SIGTERM (an orderly stop), or two signals in a row — an impatient Ctrl-C, or a signal
 * sent to the process and relayed to it once more by its launcher — which used to kill the
 * process before it stopped the server, leaving that running with its ports and database file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { processes } from '../../bench/lib/processes';
import { freePort } from '../../src/net';
import { until } from './executor-helpers';
import { spawnReady, type ChildHandle } from './fault-processes';
import { TEST_OPS_MODULE, uid } from './harness';

const dataDirs: string[] = [];
const started: ChildHandle[] = [];
const servers: number[] = [];
afterAll(async () => {
  await Promise.all(started.map((dev) => dev.kill('SIGKILL')));
  // A failing case leaves its dev server behind: that is what it checks.
  for (const pid of servers.filter(alive)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** `plangraph dev` on ports and a data directory of its own, once it says it is ready. */
async function startDev(): Promise<ChildHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plangraph-dev-'));
  dataDirs.push(dataDir);
  const dev = await spawnReady(
    ['src/cli/main.ts', 'dev'],
    {
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      TEMPORAL_UI_PORT: String(await freePort()),
      TEMPORAL_TASK_QUEUE: uid('tq'),
      OPS_MODULES: TEST_OPS_MODULE,
      API_HOST: '127.0.0.1',
      API_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    },
    /ready; Ctrl-C stops everything/,
    120_000,
  );
  started.push(dev);
  return dev;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The Temporal CLI process `plangraph dev` started. */
function devServerOf(dev: ChildHandle): number {
  const server = processes().find((p) => p.parent === dev.child.pid && p.name === 'temporal')?.pid;
  expect(server, `no dev server under plangraph dev:\n${dev.output()}`).toBeDefined();
  servers.push(server!);
  return server!;
}

describe('plangraph dev stops the dev server it started', () => {
  it('on one SIGTERM: everything stops in order', async () => {
    const dev = await startDev();
    const server = devServerOf(dev);
    await dev.kill('SIGTERM');
    expect(dev.child.exitCode, dev.output()).toBe(0);
    expect(dev.output()).toContain('stopped');
    await until(async () => alive(server), (running) => !running, 'the dev server to exit', 15_000);
  }, 180_000);

  it('on two signals in a row: exits at once, and the dev server still goes', async () => {
    const dev = await startDev();
    const server = devServerOf(dev);
    dev.child.kill('SIGINT');
    // Two signals sent at once may arrive as one: the second comes while the first is being handled.
    await until(async () => dev.output(), (output) => output.includes('stopping (SIGINT)'), 'the orderly stop to begin');
    await dev.kill('SIGINT');
    expect(dev.output()).toContain('SIGINT again: exiting now');
    expect(dev.child.exitCode).toBe(130);
    await until(async () => alive(server), (running) => !running, 'the dev server to exit', 15_000);
  }, 180_000);
});
