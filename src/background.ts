/**
 * Background jobs `plangraph dev` keeps running besides the worker and the API.
 */
import type { Services } from './services';

/** Starts the background jobs; returns a function that stops them. */
export async function startBackgroundJobs(_services: Services, _log: (line: string) => void): Promise<() => Promise<void>> {
  return async () => undefined;
}
