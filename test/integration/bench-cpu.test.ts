/**
 * The bench's CPU reading counts Postgres's work (the throughput scenario reports it per run, to
 * tell the bookkeeping's database cost apart from Temporal's), and backends that connect or
 * disconnect between two readings never make it negative.
 */
import { afterAll, describe, expect, it, inject } from 'vitest';
import { cpuNow, cpuSince } from '../../bench/lib/cpu';
import { createDb } from '../../src/db/client';
import { until } from './executor-helpers';

/** A query that keeps its backend busy for a few hundred milliseconds of CPU. */
const BURN = 'SELECT count(*) FROM generate_series(1, 3000000) AS g WHERE g % 7 = 0';
const db = createDb(inject('databaseUrl'), 2);
afterAll(() => db.$client.end());

describe('the bench CPU reading', () => {
  it('sees the CPU a Postgres backend spends on a query', async () => {
    await db.$client.query('SELECT 1'); // the backend exists before the first reading
    const start = cpuNow(process.pid);
    await db.$client.query(BURN);
    const used = cpuSince(start, process.pid);
    expect(used.postgresMs).toBeGreaterThanOrEqual(100);
  });

  it('counts a backend that started after the first reading', async () => {
    const start = cpuNow(process.pid);
    const fresh = createDb(inject('databaseUrl'), 1);
    try {
      await fresh.$client.query(BURN);
      expect(cpuSince(start, process.pid).postgresMs).toBeGreaterThanOrEqual(100);
    } finally {
      await fresh.$client.end();
    }
  });

  it('leaves out a backend that ended between the readings instead of going negative', async () => {
    const ending = createDb(inject('databaseUrl'), 1);
    const { rows } = await ending.$client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await ending.$client.query(BURN);
    const start = cpuNow(process.pid);
    expect(start.postgres.get(rows[0]!.pid)).toBeGreaterThanOrEqual(100);
    await ending.$client.end();
    await until(async () => cpuNow(process.pid).postgres.has(rows[0]!.pid), (present) => !present, 'the backend to exit', 5_000);
    expect(cpuSince(start, process.pid).postgresMs).toBeGreaterThanOrEqual(0);
  });
});
