/**
 * CPU time of the bench process (worker + client), of the dev server and of Postgres. On a shared
 * machine CPU seconds are steadier than wall time: other tenants stretch the wall clock, not the work.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

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

/** CPU ms and command name of a process from /proc/PID/stat; undefined once it has gone. */
function processStat(pid: number): { name: string; cpuMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU ms so far of each Postgres process (backends come and go: they are counted one by one). */
function postgresCpu(): Map<number, number> {
  const totals = new Map<number, number>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return totals;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(Number(entry));
    if (stat?.name === 'postgres') totals.set(Number(entry), stat.cpuMs);
  }
  return totals;
}

/** Current CPU totals of this process, the dev server and Postgres. */
export function cpuNow(serverPid: number): CpuReading {
  const own = process.cpuUsage();
  return { benchMs: (own.user + own.system) / 1000, serverMs: processStat(serverPid)?.cpuMs ?? Number.NaN, postgres: postgresCpu() };
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
