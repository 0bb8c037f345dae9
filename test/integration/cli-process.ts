/** Runs the CLI as a child process against a test context's Postgres, Temporal and task queue. */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { TEST_OPS_MODULE, type TestContext } from './harness';

/**
 * `plangraph …args`; resolves with stdout/stderr, rejects (with `code` and `stderr`) on a
 * non-zero exit. Asynchronous on purpose: a worker in the test process must keep answering.
 */
export function runCli(ctx: Pick<TestContext, 'config' | 'taskQueue'>, ...args: string[]) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, DATABASE_URL: ctx.config.DATABASE_URL, TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE: ctx.taskQueue, OPS_MODULES: TEST_OPS_MODULE },
    timeout: 60_000,
  });
}
