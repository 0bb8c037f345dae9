/**
 * Processes as Linux's /proc shows them: id, parent, command name and CPU used so far. The bench
 * reads CPU from here; tests use it to find the processes a command started.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

export interface ProcessInfo {
  pid: number;
  parent: number;
  /** The command name (at most 15 characters, as the kernel keeps it). */
  name: string;
  /** utime + stime so far. */
  cpuMs: number;
}

/** One process from /proc/PID/stat; undefined once it has gone (or where there is no /proc). */
export function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name is in parentheses and may itself hold spaces or parentheses: fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return {
      pid,
      parent: Number(fields[1]),
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** Every process still there by the time it is read. */
export function processes(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => processInfo(Number(entry)) ?? []);
}
