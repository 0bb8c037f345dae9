/**
 * Finds the Temporal CLI (dev server + Web UI): TEMPORAL_CLI_PATH, then a `temporal` on PATH,
 * then the project's cached build in .tools/bin. `scripts/setup.mjs` builds the cache.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CACHED_CLI_PATH } from '../package-files';

/** The path of a usable Temporal CLI, or undefined when none is installed. */
export function findTemporalCli(explicit?: string): string | undefined {
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'temporal');
    if (dir && existsSync(candidate)) return candidate;
  }
  return existsSync(CACHED_CLI_PATH) ? CACHED_CLI_PATH : undefined;
}
