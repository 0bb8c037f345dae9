/**
 * A Postgres server of a test's own, which the test may restart (the shared one never is):
 * initdb into a temporary directory, started with pg_ctl on a free loopback port, as the
 * `postgres` user when the tests run as root (initdb refuses root).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/net';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  /** A URL for database `name` on this server. */
  url(name: string): string;
  /** Stops at once (like a crash: `-m immediate`) and starts again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether this machine can run a private server (the binaries exist). */
export const privatePostgresAvailable = existsSync(join(BIN, 'initdb'));

/** Runs a server binary (as `postgres` when root), without blocking the event loop. */
async function run(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (userInfo().uid === 0) await promisify(execFile)('runuser', ['-u', 'postgres', '--', command!, ...rest], { cwd: tmpdir() });
  else await promisify(execFile)(command!, rest);
}

/** Creates and starts a private server. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'plangraph-pg-'));
  if (userInfo().uid === 0) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await run([join(BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (action: string, ...extra: string[]) => run([join(BIN, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'log'), '-w', ...extra, action]);
  await ctl('start');
  return {
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async restart() {
      await ctl('stop', '-m', 'immediate');
      await ctl('start');
    },
    stop: () => ctl('stop', '-m', 'immediate'),
  };
}
