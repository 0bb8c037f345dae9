/**
 * Background jobs `plangraph dev` keeps running besides the worker and the API.
 */
import { ensureConsolidationSchedule } from './consolidation/scheduling';
import type { Services } from './services';

/** Starts the background jobs; returns a function that stops them. */
export async function startBackgroundJobs(services: Services, log: (line: string) => void): Promise<() => Promise<void>> {
  // The consolidation schedule lives in Temporal, so there is nothing to stop here.
  log((await ensureConsolidationSchedule(services.temporal.client, services.config)).message);
  return async () => undefined;
}
