/**
 * Real processes for the fault tests: a plangraph worker or API started as a child process,
 * awaited until it says it is ready, and killed the hard way (SIGKILL) like a crashed host.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { inject } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface ChildHandle {
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Sends the signal and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `node --import tsx <args>` in the repository root and waits for a line matching `ready`. */
export function spawnReady(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<ChildHandle> {
  return spawnProgramReady(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, ready, timeoutMs });
}

/** Starts a program and waits until its output matches `ready`. */
export function spawnProgramReady(
  program: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; ready: RegExp; timeoutMs?: number; ownGroup?: boolean },
): Promise<ChildHandle> {
  const { cwd, env, ready, timeoutMs = 60_000, ownGroup = false } = options;
  // A process group of its own can be signalled as a terminal signals its foreground job.
  const child = spawn(program, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: ownGroup });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const handle: ChildHandle = {
    child,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => {
      void handle.kill('SIGKILL');
      reject(new Error(`process ${args.join(' ')} not ready after ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolveReady(handle);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`process ${args.join(' ')} exited (${signal ?? code}) before it was ready:\n${output}`));
    });
  });
}

/** A worker process on the given task queue, with the test ops and the prebuilt workflow bundle. */
export function spawnWorker(env: { DATABASE_URL: string; TEMPORAL_ADDRESS: string; TEMPORAL_TASK_QUEUE: string; OPS_MODULES: string } & Record<string, string>): Promise<ChildHandle> {
  return spawnReady(['test/fixtures/worker-process.ts', inject('workflowBundlePath')], env, /worker-ready/);
}
