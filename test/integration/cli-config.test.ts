import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { processes, processInfo } from '../../bench/lib/processes';
import { until } from './executor-helpers';
import { spawnProgramReady } from './fault-processes';

const root = resolve(import.meta.dirname, '../..');

/** Runs the CLI with extra environment; returns exit code and stderr lines. */
function plangraph(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, lines: result.stderr.trim().split('\n').filter((l) => l.startsWith('plangraph:')), stderr: result.stderr };
}

describe('bad configuration gives one line naming the setting and a non-zero exit', () => {
  it.each([
    [['migrate'], { DATABASE_URL: 'mysql://nope' }, /DATABASE_URL/],
    [['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable' }, /DATABASE_URL=postgres:\/\/postgres@127\.0\.0\.1:1\/unreachable/],
    [['worker'], { TEMPORAL_ADDRESS: 'not-an-address' }, /TEMPORAL_ADDRESS/],
    [['worker'], { TEMPORAL_ADDRESS: '127.0.0.1:1' }, /cannot reach Temporal at TEMPORAL_ADDRESS=127\.0\.0\.1:1/],
    [['api'], { API_PORT: '70000' }, /API_PORT/],
    [['api'], { API_PORT: '0x1F90' }, /API_PORT="0x1F90": must be a whole number in decimal digits/],
  ])('plangraph %s with %o', (args, env, pattern) => {
    const { status, lines, stderr } = plangraph(args, env);
    expect(status).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
    expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
  });
});

describe('bad flag values and files give one line naming them, before anything starts', () => {
  it.each([
    [['runs', 'nodes', 'some-run', '--limit', 'abc'], '--limit must be an integer from 1 to 1000, got "abc"'],
    [['runs', 'nodes', 'some-run', '--offset', '-1'], '--offset must be an integer of at least 0, got "-1"'],
    [['retrieve', 'x', '--limit', '0'], '--limit must be an integer from 1 to 100, got "0"'],
    [['plans', 'list', '--limit', '1.5'], '--limit must be an integer from 1 to 200, got "1.5"'],
    [['runs', 'waiting', '--limit', ''], '--limit must be an integer from 1 to 200, got ""'],
    [['runs', 'list', '--since', 'yesterday'], '--since: Invalid ISO datetime, got "yesterday"'],
    [['runs', 'list', '--plan-id', 'x'], '--plan-id: Invalid UUID, got "x"'],
    [['episodes', 'ingest', '/no-such-dir/episodes.jsonl'], "cannot read /no-such-dir/episodes.jsonl: ENOENT: no such file or directory, open '/no-such-dir/episodes.jsonl'"],
    [['episodes', 'ingest', tmpdir()], `cannot read ${tmpdir()}: it is a directory, not a JSON Lines file`],
    // zod would drop the key on the way to the run (which would start with inputs {}).
    // Temporal would answer with its raw "Failed to describe workflow".
    [['runs', 'show', ''], '<workflow_id>: must not be empty, got ""'],
    [['runs', 'approve', 'some-run', ''], '<node_id>: must not be empty, got ""'],
    [['run', '--task', 'echo', '--input', 'env=prod', '--input', 'env=dev'], '--input env=dev: env is given twice'],
    [['run', '--task', 'echo', '--input', '__proto__=x'], '--input __proto__=x: inputs.__proto__ is a key named "__proto__", which is refused (it could replace an object\'s prototype)'],
  ])('plangraph %s', (args, message) => {
    // An unreachable database: a command that got past its flags would fail on it instead.
    const { status, lines, stderr } = plangraph(args, { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(status).toBe(1);
    expect(lines).toEqual([`plangraph: ${message}`]);
    expect(stderr.trim()).toBe(`plangraph: ${message}`);
  });
});

describe('a second plangraph dev', () => {
  it('on a taken API port exits 1 naming API_HOST and API_PORT, before its worker polls (it would drop what it took)', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const taskQueue = `second-dev-${randomUUID()}`;
    try {
      const port = String((taken.address() as AddressInfo).port);
      const env = { DATABASE_URL: inject('databaseUrl'), TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE: taskQueue, API_PORT: port };
      const { status, lines } = plangraph(['dev'], env);
      expect(status).toBe(1);
      expect(lines).toEqual([`plangraph: the API cannot listen on 127.0.0.1:${port} (API_HOST, API_PORT): the address is in use, by another plangraph dev or api perhaps`]);
      const connection = await Connection.connect({ address: inject('temporalAddress') });
      try {
        const client = new Client({ connection });
        for (const taskQueueType of [1, 2]) {
          const { pollers } = await client.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: taskQueue }, taskQueueType });
          expect(pollers ?? []).toEqual([]);
        }
      } finally {
        await connection.close();
      }
    } finally {
      taken.close();
    }
  });
});

describe('bin/plangraph.mjs works from any directory (as an MCP client starts it)', () => {
  /** The bin run with another working directory and none of this checkout's Node options. */
  function fromElsewhere(args: string[], env: Record<string, string> = {}) {
    return spawnSync(process.execPath, [resolve(root, 'bin/plangraph.mjs'), ...args], {
      cwd: tmpdir(),
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  it('prints its help', () => {
    const result = fromElsewhere(['--help']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: plangraph/);
  });

  it('passes a SIGTERM sent to it on: the worker it runs drains and stops, not left polling', async () => {
    const env = { DATABASE_URL: inject('databaseUrl'), TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE: `bin-${randomUUID()}`, NODE_OPTIONS: '' };
    const launcher = await spawnProgramReady(process.execPath, [resolve(root, 'bin/plangraph.mjs'), 'worker'], { cwd: tmpdir(), env, ready: /ready;/, timeoutMs: 90_000 });
    const worker = processes().find((p) => p.parent === launcher.child.pid);
    expect(worker, 'the launcher runs the CLI as its child').toBeDefined();
    await launcher.kill('SIGTERM');
    expect(launcher.output()).toContain('stopping (SIGTERM)');
    expect(launcher.output()).toContain('[plangraph] stopped');
    expect(launcher.child.exitCode).toBe(0);
    await until(async () => processInfo(worker!.pid) !== undefined, (alive) => !alive, 'the worker to exit', 15_000);
  }, 120_000);

  it('reads the database (plangraph stats)', () => {
    const result = fromElsewhere(['stats'], { DATABASE_URL: inject('databaseUrl') });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^plan_reuse_frequency/);
  });
});
