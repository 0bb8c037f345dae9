/**
 * A database of the test file's own, for tests whose results depend on every stored record
 * (selection confidence, corpus statistics): created and migrated before the file's tests,
 * dropped after them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb, createScratchDatabase, type Db } from '../../src/db/client';

/** Registers the file's hooks; `onOpen` receives the database handle once it exists. */
export function usePrivateDatabase(suffix: string, onOpen: (db: Db) => void): void {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    const base = inject('databaseUrl');
    database = await createScratchDatabase(base, `${new URL(base).pathname.slice(1)}_${suffix}`);
    db = createDb(database.url);
    onOpen(db);
  });
  afterAll(async () => {
    await db?.$client.end();
    await database?.drop();
  });
}

/** Empties the records so each test sees only its own. */
export async function emptyRecords(db: Db): Promise<void> {
  await db.execute(sql`TRUNCATE memory_records, memory_relations, audit_log, plan_stats CASCADE`);
}
