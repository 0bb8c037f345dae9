/**
 * Starting the Temporal dev server on a free port: a server that ends at start-up (one of the
 * internal ports the CLI picked was taken meanwhile) is started again on new ports.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { DevServerExitedError, startDevServerOnFreePort } from '../../src/temporal/dev-server';

/** A CLI that fails its first `failures` starts as a taken port would, then runs the real one. */
function flakyCli(failures: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'plangraph-flaky-cli-'));
  const script = join(dir, 'temporal');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `count=$(cat "${dir}/starts" 2>/dev/null || echo 0)`,
      `echo $((count + 1)) > "${dir}/starts"`,
      `if [ "$count" -lt ${failures} ]; then echo "listen tcp 127.0.0.1:40000: bind: address already in use" >&2; exit 2; fi`,
      `exec "${inject('temporalCliPath')}" "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return script;
}

describe('starting the dev server on a free port', () => {
  it('starts it again on another port when it ends at start-up', async () => {
    const lines: string[] = [];
    const server = await startDevServerOnFreePort({ cliPath: flakyCli(2), log: (line) => lines.push(line) });
    try {
      const connection = await Connection.connect({ address: server.address });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      expect(lines.filter((l) => l.includes('starting it again on another port'))).toHaveLength(2);
      expect(lines.join('')).toContain('address already in use');
    } finally {
      await server.stop();
    }
  });

  it('gives up after three tries, with what the server said', async () => {
    const attempt = startDevServerOnFreePort({ cliPath: flakyCli(3) });
    await expect(attempt).rejects.toBeInstanceOf(DevServerExitedError);
    await expect(attempt).rejects.toThrow(/exited with code 2: listen tcp 127.0.0.1:40000: bind: address already in use/);
  });
});
