/**
 * CPU time of the bench process (worker + client) and of the dev server. On a shared machine
 * CPU seconds are steadier than wall time: other tenants stretch the wall clock, not the work.
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

export interface CpuTimes {
  /** This process: the in-process worker and the bench client. */
  benchMs: number;
  /** The Temporal dev server. */
  serverMs: number;
}

/** CPU ms a process has used so far (utime + stime from /proc); NaN where /proc is unavailable. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Current CPU totals of this process and the dev server. */
export function cpuNow(serverPid: number): CpuTimes {
  const own = process.cpuUsage();
  return { benchMs: (own.user + own.system) / 1000, serverMs: processCpuMs(serverPid) };
}

/** CPU used between two readings. */
export function cpuSince(start: CpuTimes, serverPid: number): CpuTimes {
  const end = cpuNow(serverPid);
  return { benchMs: end.benchMs - start.benchMs, serverMs: end.serverMs - start.serverMs };
}
