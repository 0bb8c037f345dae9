/**
 * CPU time of the bench process (worker + client), of the dev server and of Postgres. On a shared
 * machine CPU seconds are steadier than wall time: other tenants stretch the wall clock, not the work.
 */
import { processes, processInfo } from './processes';

export interface CpuTimes {
  /** This process: the in-process worker and the bench client. */
  benchMs: number;
  /** The Temporal dev server. */
  serverMs: number;
  /** Every Postgres process on the machine (the run rows and plan counters are written there). */
  postgresMs: number;
}

/** A reading to measure from: totals so far, per Postgres process. */
export interface CpuReading {
  benchMs: number;
  serverMs: number;
  postgres: Map<number, number>;
}

/** CPU ms so far of each Postgres process (backends come and go: they are counted one by one). */
function postgresCpu(): Map<number, number> {
  return new Map(processes().filter((p) => p.name === 'postgres').map((p) => [p.pid, p.cpuMs]));
}

/** Current CPU totals of this process, the dev server and Postgres. */
export function cpuNow(serverPid: number): CpuReading {
  const own = process.cpuUsage();
  return { benchMs: (own.user + own.system) / 1000, serverMs: processInfo(serverPid)?.cpuMs ?? Number.NaN, postgres: postgresCpu() };
}

/**
 * CPU used since a reading. A Postgres process that started since counts in full; one that
 * exited meanwhile is left out (its last ticks cannot be read), so the figure never goes negative.
 */
export function cpuSince(start: CpuReading, serverPid: number): CpuTimes {
  const end = cpuNow(serverPid);
  let postgresMs = 0;
  for (const [pid, total] of end.postgres) {
    const before = start.postgres.get(pid) ?? 0;
    postgresMs += total >= before ? total - before : total; // less than before: a new process under a reused pid
  }
  return { benchMs: end.benchMs - start.benchMs, serverMs: end.serverMs - start.serverMs, postgresMs };
}
