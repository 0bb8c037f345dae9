/**
 * Wires the long-lived dependencies (database, Temporal client, stores, embedder, op registry)
 * once, for the API, the CLI and the dev command alike.
 */
import type { Client, Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { OpRegistry } from './ops/registry';
import { createApiKeyStore } from './store/api-keys';
import type { Config } from './config';
import { createDb, type Db } from './db/client';
import { createEmbedder, type Embedder } from './embeddings/embedder';
import { createEpisodeStore } from './store/episodes';
import { createRunStore } from './store/plan-runs';
import { createRecordStore } from './store/records';
import { createRevisionStore } from './store/revisions';
import { createRetriever } from './retrieval/retrieve';
import { createAliasLearner, type AliasLearner } from './store/aliases';
import { createReinforcer } from './retrieval/reinforce';
import { createPlanReader } from './retrieval/plan-reader';
import { clientOver, connectTemporal } from './temporal/connection';
import { loadOpRegistry } from './ops/registry';

export interface Services {
  config: Config;
  db: Db;
  embedder: Embedder | undefined;
  registry: OpRegistry;
  temporal: {
    connection: Connection;
    client: Client;
    /**
     * The client runs are started with: over the worker's connection where a worker shares this
     * process, so a run's first workflow task goes straight to it (eager start); else `client`.
     */
    starter: Client;
  };
  records: ReturnType<typeof createRecordStore>;
  runs: ReturnType<typeof createRunStore>;
  episodes: ReturnType<typeof createEpisodeStore>;
  apiKeys: ReturnType<typeof createApiKeyStore>;
  retriever: ReturnType<typeof createRetriever>;
  revisions: ReturnType<typeof createRevisionStore>;
  reinforcer: ReturnType<typeof createReinforcer>;
  aliases: AliasLearner;
  plans: ReturnType<typeof createPlanReader>;
  close(): Promise<void>;
}

/**
 * Connects to Postgres and Temporal and builds every store; `workerConnection` is the native
 * connection of a worker running in this process, if any.
 */
export async function createServices(config: Config, options: { workerConnection?: NativeConnection } = {}): Promise<Services> {
  const db = createDb(config.DATABASE_URL);
  const embedder = createEmbedder(config);
  const { connection, client } = await connectTemporal(config);
  const aliases = createAliasLearner(db);
  return {
    config,
    db,
    embedder,
    registry: await loadOpRegistry(config),
    temporal: { connection, client, starter: options.workerConnection ? clientOver(options.workerConnection, config.TEMPORAL_NAMESPACE) : client },
    records: createRecordStore(db, embedder),
    runs: createRunStore(db),
    episodes: createEpisodeStore(db, embedder),
    apiKeys: createApiKeyStore(db),
    retriever: createRetriever({ db, embedder, threshold: config.SELECTION_THRESHOLD, mode: config.SELECTION_MODE }),
    revisions: createRevisionStore(db, embedder),
    reinforcer: createReinforcer(db, aliases),
    aliases,
    plans: createPlanReader(db),
    async close() {
      await connection.close();
      await db.$client.end();
    },
  };
}
