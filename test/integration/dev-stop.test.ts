/**
 * `plangraph dev` takes the Temporal dev server it started down with it, however it is told to
 * stop: one SIGTERM (an orderly stop), or another signal while it stops (an impatient Ctrl-C, a
 * SIGTERM after a SIGINT), which used to kill the process before it stopped the server, leaving
 * that running with its ports and database file.
 * Under `npm start`, a terminal's one Ctrl-C (which npm relays as well) and a SIGTERM sent to npm
 * alone both stop it in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { processes, processInfo } from '../../bench/lib/processes';
import { freePort } from '../../src/net';
import { until } from './executor-helpers';
import { ROOT, spawnProgramReady, spawnReady, type ChildHandle } from './fault-processes';
import { TEST_OPS_MODULE, uid } from './harness';

const dataDirs: string[] = [];
const started: ChildHandle[] = [];
const servers: number[] = [];
/** Process groups of the `npm start` jobs: a failing case leaves its processes behind. */
const groups: number[] = [];
afterAll(async () => {
  for (const group of groups) killGroup(group);
  await Promise.all(started.map((dev) => dev.kill('SIGKILL')));
  // A failing case leaves its dev server behind: that is what it checks.
  for (const pid of servers.filter(alive)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Ports, a task queue and a data directory of its own for one `plangraph dev`. */
async function devEnv(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plangraph-dev-'));
  dataDirs.push(dataDir);
  return {
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    TEMPORAL_UI_PORT: String(await freePort()),
    TEMPORAL_TASK_QUEUE: uid('tq'),
    OPS_MODULES: TEST_OPS_MODULE,
    API_HOST: '127.0.0.1',
    API_PORT: String(await freePort()),
    DATA_DIR: dataDir,
  };
}

const READY = /ready; Ctrl-C stops everything/;

/** `plangraph dev`, once it says it is ready. */
async function startDev(): Promise<ChildHandle> {
  const dev = await spawnReady(['src/cli/main.ts', 'dev'], await devEnv(), READY, 120_000);
  started.push(dev);
  return dev;
}

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The Temporal CLI process `plangraph dev` started, `dev` being that process or `npm start` above it. */
async function devServerOf(dev: ChildHandle): Promise<number> {
  const serverUnder = () => {
    const all = processes();
    const descends = (pid: number): boolean => pid === dev.child.pid || (pid > 1 && descends(all.find((p) => p.pid === pid)?.parent ?? 0));
    return all.find((p) => p.name === 'temporal' && descends(p.parent))?.pid;
  };
  const server = await until(async () => serverUnder(), (pid) => pid !== undefined, `a dev server under plangraph dev:\n${dev.output()}`);
  servers.push(server!);
  return server!;
}

describe('plangraph dev stops the dev server it started', () => {
  it('on one SIGTERM: everything stops in order', async () => {
    const dev = await startDev();
    const server = await devServerOf(dev);
    await dev.kill('SIGTERM');
    expect(dev.child.exitCode, dev.output()).toBe(0);
    expect(dev.output()).toContain('stopped');
    await until(async () => alive(server), (running) => !running, 'the dev server to exit', 15_000);
  }, 180_000);

  it('on another signal while stopping: exits at once, and the dev server still goes', async () => {
    const dev = await startDev();
    const server = await devServerOf(dev);
    dev.child.kill('SIGINT');
    // Two signals sent at once may arrive as one: the second comes while the first is being handled.
    await until(async () => dev.output(), (output) => output.includes('stopping (SIGINT)'), 'the orderly stop to begin');
    await dev.kill('SIGTERM');
    expect(dev.output()).toContain('SIGTERM while stopping: exiting now');
    expect(dev.child.exitCode).toBe(143);
    await until(async () => alive(server), (running) => !running, 'the dev server to exit', 15_000);
  }, 180_000);

  /** `npm start` in a process group of its own (once its output matches `ready`), plangraph dev's process and its dev server's. */
  async function npmStart(ready = READY): Promise<{ npm: ChildHandle; dev: number; server: number }> {
    const npm = await spawnProgramReady('npm', ['start'], { cwd: ROOT, env: await devEnv(), ready, timeoutMs: 120_000, ownGroup: true });
    started.push(npm);
    groups.push(npm.child.pid!);
    const server = await devServerOf(npm);
    const dev = processInfo(server)!.parent;
    // No shell or launcher in between: a shell would not pass on a SIGTERM sent to npm, and the tsx
    // launcher relayed a terminal's Ctrl-C late enough to cut the stop short.
    expect(processInfo(dev)?.parent, `plangraph dev is not npm's direct child:\n${JSON.stringify(processes().filter((p) => p.pid >= npm.child.pid!))}`).toBe(npm.child.pid);
    return { npm, dev, server };
  }

  it('under npm start, one Ctrl-C (npm relays it too) stops everything in order', async () => {
    const { npm, dev, server } = await npmStart();
    // What a terminal's Ctrl-C does: SIGINT to every process of the foreground job.
    process.kill(-npm.child.pid!, 'SIGINT');
    await until(async () => alive(server) || alive(dev), (running) => !running, 'plangraph dev and its dev server to exit', 60_000);
    expect(npm.output()).toContain('[plangraph] stopped');
    expect(npm.output()).not.toContain('exiting now');
  }, 180_000);

  it('under npm start, a Ctrl-C while it starts up stops everything in order once it is up', async () => {
    // The dev server is spawned; the schedule, the worker and the API are still to come.
    const { npm, dev, server } = await npmStart(/Temporal: starting the dev server/);
    process.kill(-npm.child.pid!, 'SIGINT');
    await until(async () => alive(server) || alive(dev), (running) => !running, 'plangraph dev and its dev server to exit', 60_000);
    // In the same process group the server died at once, and the start-up's calls failed against it.
    expect(npm.output()).toContain('ready; Ctrl-C stops everything');
    expect(npm.output()).toContain('[plangraph] stopped');
    expect(npm.output()).not.toMatch(/Failed|exiting now/);
  }, 180_000);

  it('under npm start, a SIGTERM to npm alone stops everything in order', async () => {
    const { npm, dev, server } = await npmStart();
    await npm.kill('SIGTERM');
    await until(async () => alive(server) || alive(dev), (running) => !running, 'plangraph dev and its dev server to exit', 60_000);
    expect(npm.output()).toContain('stopping (SIGTERM)');
    expect(npm.output()).toContain('[plangraph] stopped');
  }, 180_000);
});
