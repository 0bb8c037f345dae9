/**
 * Shared start-up steps of the long-running verbs: reach Postgres and Temporal (starting the
 * embedded dev server when nothing answers locally), with one-line errors naming the setting.
 */
import { resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { loadConfig, type Config } from '../config';
import { prepareDatabase } from '../db/client';
import { DomainError } from '../domain/errors';
import { findTemporalCli } from '../temporal/cli-binary';
import { startDevServer, type DevServer } from '../temporal/dev-server';

/** Parses the environment; a bad value exits with one line naming the variable. */
export function configFromEnv(): Config {
  return loadConfig();
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

async function temporalAnswers(address: string): Promise<boolean> {
  try {
    const connection = await Connection.connect({ address, connectTimeout: 1_500 });
    await connection.workflowService.getSystemInfo({});
    await connection.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Uses the Temporal server at TEMPORAL_ADDRESS if it answers; otherwise, for a local address,
 * starts the dev server (persisting to DATA_DIR) on that port with the Web UI.
 */
export async function ensureTemporal(config: Config, log: (line: string) => void): Promise<DevServer | undefined> {
  if (await temporalAnswers(config.TEMPORAL_ADDRESS)) {
    log(`Temporal: using the server at ${config.TEMPORAL_ADDRESS}`);
    return undefined;
  }
  const [host, port] = config.TEMPORAL_ADDRESS.split(':');
  if (host !== '127.0.0.1' && host !== 'localhost') {
    throw new DomainError('unavailable', `cannot reach Temporal at TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}`);
  }
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
  });
}

/** Connects to Temporal or fails naming TEMPORAL_ADDRESS. */
export async function requireTemporal(config: Config): Promise<void> {
  if (!(await temporalAnswers(config.TEMPORAL_ADDRESS))) {
    throw new DomainError('unavailable', `cannot reach Temporal at TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}`);
  }
}
