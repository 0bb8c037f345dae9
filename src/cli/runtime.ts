/**
 * Shared start-up steps of the long-running verbs: reach Postgres and Temporal (starting the
 * embedded dev server when nothing answers locally), with one-line errors naming the setting.
 */
import { resolve } from 'node:path';
import { loadConfig, type Config } from '../config';
import { prepareDatabase } from '../db/client';
import { DomainError } from '../domain/errors';
import { findTemporalCli } from '../temporal/cli-binary';
import { startDevServer, type DevServer } from '../temporal/dev-server';
import { connectTemporal } from '../temporal/connection';
import { createServices, type Services } from '../services';

/** Parses the environment; a bad value exits with one line naming the variable. */
export function configFromEnv(): Config {
  return loadConfig();
}

/** Runs `work` with the services of the environment's configuration, closed afterwards. */
export async function withServices<T>(work: (services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(configFromEnv());
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}

/** Creates the database if missing and applies migrations, or fails naming DATABASE_URL. */
export async function migrateOrFail(config: Config): Promise<void> {
  try {
    await prepareDatabase(config.DATABASE_URL);
  } catch (err) {
    throw new DomainError('unavailable', `cannot use Postgres at DATABASE_URL=${redactUrl(config.DATABASE_URL)}: ${(err as Error).message}`);
  }
}

export function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Undefined when Temporal answers with the configured connection settings; else why not, in one line. */
async function temporalProblem(config: Config): Promise<DomainError | undefined> {
  try {
    await (await connectTemporal(config, { connectTimeoutMs: 1_500 })).close();
    return undefined;
  } catch (err) {
    return err instanceof DomainError ? err : new DomainError('unavailable', String(err));
  }
}

/** A dev server may stand in only for a plain local address with no credentials configured. */
function devServerMayStart(config: Config): boolean {
  const host = config.TEMPORAL_ADDRESS.split(':')[0];
  const { tls, apiKey } = config.temporalConnection;
  return (host === '127.0.0.1' || host === 'localhost') && (tls === undefined || tls === false) && apiKey === undefined;
}

/**
 * Uses the Temporal server at TEMPORAL_ADDRESS if it answers; otherwise, for a local address,
 * starts the dev server (persisting to DATA_DIR) on that port with the Web UI.
 */
export async function ensureTemporal(config: Config, log: (line: string) => void): Promise<DevServer | undefined> {
  const problem = await temporalProblem(config);
  if (!problem) {
    log(`Temporal: using the server at ${config.TEMPORAL_ADDRESS}`);
    return undefined;
  }
  if (!devServerMayStart(config)) throw problem;
  const port = config.TEMPORAL_ADDRESS.split(':')[1];
  const cliPath = findTemporalCli(config.TEMPORAL_CLI_PATH);
  if (!cliPath) {
    throw new DomainError('unavailable', 'no Temporal CLI found: run `node scripts/setup.mjs` or set TEMPORAL_CLI_PATH');
  }
  log(`Temporal: starting the dev server on ${config.TEMPORAL_ADDRESS} (UI :${config.TEMPORAL_UI_PORT})…`);
  return startDevServer({
    cliPath,
    port: Number(port),
    uiPort: config.TEMPORAL_UI_PORT,
    dbFile: resolve(config.DATA_DIR, 'temporal.sqlite'),
    namespace: config.TEMPORAL_NAMESPACE,
    // `plangraph dev` stops it in order on the first signal, whenever that comes.
    ownProcessGroup: true,
  });
}

/** Connects to Temporal or fails with one line naming the setting to check. */
export async function requireTemporal(config: Config): Promise<void> {
  const problem = await temporalProblem(config);
  if (problem) throw problem;
}
