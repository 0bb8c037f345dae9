/**
 * Postgres connection, database creation and migrations. The only module that opens pools.
 */
import { randomBytes } from 'node:crypto';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../package-files';
import { schema } from './schema';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

// Return bigint and numeric columns as JS numbers: counters here stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Session settings every connection starts with (sent in the startup packet, so they cost no round
 * trip). pgvector's HNSW scans: iterative scanning keeps going past ef_search until a filtered
 * query's LIMIT is filled (trust filters apply after the index), in relaxed order since retrieval
 * re-scores its candidates exactly; ef_search 50 is the default candidate pool (limit 10).
 * Options given in the database URL take precedence.
 */
export const SESSION_OPTIONS = '-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=50';

/** Opens a pool and a drizzle handle on it. */
export function createDb(url: string, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000, options: SESSION_OPTIONS });
  // A client losing its connection (e.g. Postgres restarting) must not crash the process: idle,
  // the pool drops it; checked out (between a transaction's statements), the query it runs next
  // fails and the caller's retry takes over. pg emits both as 'error' events, fatal unheard.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return drizzle(pool, { schema }) as Db;
}

/** Creates the database named in the URL if it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created concurrently by another process
      });
    }
  } finally {
    await client.end();
  }
}

/** Applies the committed drizzle-kit migrations. */
export async function migrateDb(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}

/** Creates the database if needed and applies migrations. */
export async function prepareDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const db = createDb(url, 1);
  try {
    await migrateDb(db);
  } finally {
    await db.$client.end();
  }
}

/**
 * A throwaway database next to the one in `baseUrl` (tests, benchmarks, history recording):
 * created and migrated now, dropped (even with open connections) by `drop()`.
 */
export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(baseUrl);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  url.pathname = `/${name}`;
  await prepareDatabase(url.toString());
  return {
    url: url.toString(),
    async drop() {
      const admin = new URL(baseUrl);
      admin.pathname = '/postgres';
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
