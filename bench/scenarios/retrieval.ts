/**
 * Scenario 6: retrieval latency over the vector index at 10k and 100k stored plan graphs.
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { createDb } from '../../src/db/client';
import type { TrustContext } from '../../src/domain/records';
import { createEmbedder } from '../../src/embeddings/embedder';
import { generatedIntent, generatePlans } from '../../src/retrieval/generate-plans';
import { createRetriever } from '../../src/retrieval/retrieve';
import type { BenchEnv } from '../lib/environment';
import type { Scenario } from '../lib/scenario';
import { median, percentile, round } from '../lib/stats';

const SIZES = [10_000, 100_000] as const;
const QUERIES = 300;
const WARMUP = 30;
const TRUST: TrustContext = { max_sensitivity: 'high', authenticated: true };

/** A deterministic source of "random" numbers for the query texts. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Latencies (ms) of `QUERIES` retrievals of intents like the stored ones, after a warm-up. */
async function measure(env: BenchEnv, planCount: number): Promise<number[]> {
  const retriever = createRetriever({ db: env.db, embedder: createEmbedder(env.config), threshold: env.config.SELECTION_THRESHOLD, mode: env.config.SELECTION_MODE });
  const random = seeded(planCount);
  const query = () => ({ task_descriptor: generatedIntent(Math.floor(random() * planCount), random), trust: TRUST, limit: 10 });
  for (let i = 0; i < WARMUP; i++) await retriever.retrieve(query());
  const latencies: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const request = query();
    const t0 = performance.now();
    await retriever.retrieve(request);
    latencies.push(performance.now() - t0);
  }
  return latencies;
}

export const retrieval: Scenario = {
  name: 'retrieval',
  title: 'Retrieval latency (10k and 100k plans, HNSW)',
  method:
    `\`generatePlans\` (src/retrieval/generate-plans.ts) bulk-loads plan graphs embedded by the configured embedder (semantic by default), the HNSW index rebuilt after ` +
    `loading; then ${QUERIES} sequential \`retrieve\` calls (after ${WARMUP} warm-up calls) with intents like the stored ones, ` +
    'trust = high/authenticated, limit 10, default selector (hybrid lexical + dense, calibrated), measured end to end in ' +
    'process (embedding, SQL, BM25F and cosine scoring). The same measurement at ' +
    `${SIZES.map((s) => s.toLocaleString('en-US')).join(' and ')} plans; ratio = p95 at 100k / p95 at 10k.`,
  analysis:
    'The HNSW index makes the cost nearly independent of the number of plans: the query reads a fixed-size pool of nearest ' +
    'neighbours (50 for limit 10) and scores only those exactly, so p50 barely moves from 10k to 100k. Warm, the statement ' +
    'itself executes in about 1 ms at 100k (EXPLAIN ANALYZE: HNSW scan 0.5 ms, GIN scan 0.03 ms, 52 rows joined); what ' +
    'a retrieval costs beyond that is round trips and JavaScript (row parsing, word alignment, BM25F: about 4 ms of CPU per ' +
    'query). Gathering used to take four round trips (BEGIN, settings and query lexemes, candidates, COMMIT); it is one ' +
    'statement now (HNSW settings sent when a connection opens, lexemes computed in the statement, the task vector sent ' +
    'once): in five interleaved A/B runs on a loaded machine (load 9-17) it lowered p50 by 10-50 % and the process CPU per query by ' +
    '17-45 %. The tail (p95) is ' +
    'dominated by the shared machine — garbage collection and other tenants\' processes preempting a 5 ms query — which is why ' +
    'the 10k p95 can come out above the 100k one. Loading sets `maintenance_work_mem` = 1 GB on the throwaway bench database: ' +
    'with the 64 MB default the 100k-vector HNSW build no longer fits in memory and the load took ~3× longer.',
  async run(env, log) {
    // HNSW builds are several times slower once the graph outgrows maintenance_work_mem (64 MB by
    // default; 100k × 256-d vectors need more). Set for this throwaway database only, and load
    // through a fresh pool so its sessions see the setting.
    const name = new URL(env.config.DATABASE_URL).pathname.slice(1);
    await env.db.execute(sql.raw(`ALTER DATABASE "${name}" SET maintenance_work_mem = '1GB'`));
    const loader = createDb(env.config.DATABASE_URL, 2);
    const p95s: number[] = [];
    const figures = [];
    const notes: string[] = [];
    let loaded = 0;
    try {
      for (const size of SIZES) {
        const load = await generatePlans(loader, { count: size - loaded, seed: size, tag: 'bench', deferIndex: true, embedder: createEmbedder(env.config) ?? null });
        loaded = size;
        // What autovacuum does soon after a bulk load: without it every query also scans the GIN
        // index's pending list of freshly inserted plan documents (4 ms instead of 0.04 ms per lookup).
        await env.db.execute(sql`VACUUM ANALYZE memory_records`);
        log(`loaded ${load.inserted} plans in ${load.ms} ms (total ${loaded})`);
        const loadBefore = loadavg()[0]!;
        const latencies = await measure(env, size);
        const p95 = percentile(latencies, 95);
        p95s.push(p95);
        const label = `${size / 1000}k plans`;
        // The tail moves with what else the shared machine runs: record the load beside it.
        const line = `${label}: p50 ${round(median(latencies))} ms, p95 ${round(p95)} ms (1-min load average ${round(loadBefore)} before, ${round(loadavg()[0]!)} after)`;
        log(line);
        notes.push(line);
        figures.push(
          { label: `${label}: p50`, value: round(median(latencies), 2), unit: 'ms' },
          { label: `${label}: p95`, value: round(p95, 2), unit: 'ms', ...(size === 100_000 ? { target: { op: '<=' as const, value: 20 } } : {}) },
          { label: `${label}: load time`, value: round(load.ms / 1000, 1), unit: 's' },
        );
      }
    } finally {
      await loader.$client.end();
    }
    figures.push({ label: 'p95 at 100k / p95 at 10k', value: round(p95s[1]! / p95s[0]!) });
    return { figures, notes };
  },
};
