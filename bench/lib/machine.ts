/** The machine a run happened on: enough to tell two result files apart. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { sql } from 'drizzle-orm';
import type { BenchEnv } from './environment';

export interface MachineInfo {
  cpus: number;
  cpu_model: string;
  memory_gb: number;
  load_average_1m: number;
  node: string;
  temporal_cli: string;
  postgres: string;
}

/** Collects machine, runtime and server versions. */
export async function machineInfo(env: BenchEnv): Promise<MachineInfo> {
  const pgVersion = await env.db.execute<{ server_version: string }>(sql`SHOW server_version`);
  let temporal = 'unknown';
  try {
    temporal = execFileSync(env.cliPath, ['--version'], { encoding: 'utf8' }).trim().replace(/^temporal version /, '');
  } catch {
    // An unreadable version is not worth failing the run for.
  }
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    load_average_1m: Math.round(loadavg()[0]! * 100) / 100,
    node: process.version,
    temporal_cli: temporal,
    postgres: pgVersion.rows[0]?.server_version ?? 'unknown',
  };
}
