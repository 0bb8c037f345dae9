import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

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
  ])('plangraph %s with %o', (args, env, pattern) => {
    const { status, lines, stderr } = plangraph(args, env);
    expect(status).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
    expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
  });
});
