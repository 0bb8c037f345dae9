/**
 * Builds the intent service and the run viewer from the shared services, once per process, for
 * the HTTP routes, the CLI and the MCP server alike.
 */
import type { Services } from '../services';
import { createRunViewer, type RunViewer } from './run-view';
import { createIntentService, type IntentService } from './submit-intent';

export interface IntentComponents {
  intents: IntentService;
  viewer: RunViewer;
}

/** The intent service and run viewer over the given services. */
export function createIntentComponents(
  services: Pick<Services, 'config' | 'registry' | 'temporal' | 'records' | 'runs' | 'retriever' | 'aliases'>,
): IntentComponents {
  const viewer = createRunViewer({ config: services.config, client: services.temporal.client, records: services.records, runs: services.runs });
  const intents = createIntentService({
    config: services.config,
    client: services.temporal.client,
    starter: services.temporal.starter,
    records: services.records,
    retriever: services.retriever,
    knownOps: new Set(services.registry.keys()),
    viewer,
    aliases: services.aliases,
    opener: { runs: services.runs, registry: services.registry },
  });
  return { intents, viewer };
}
