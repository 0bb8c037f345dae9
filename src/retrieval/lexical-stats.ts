/**
 * Corpus statistics for lexical scoring — how many active plans contain each lexeme, and the
 * average document length — read with ts_stat and cached per process. A stale cache only nudges
 * scores (new plans' words count as rare for a while), so it is refreshed in the background
 * every STATS_TTL_MS while queries keep using the previous one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { CorpusStats } from '../domain/lexical';

export const STATS_TTL_MS = 5 * 60_000;

/**
 * Lexemes in more plans than this share (and at least FREQUENT_DF_FLOOR plans) still score, but
 * do not drive the GIN candidate scan: ranking thousands of matches of a common word would cost
 * more than it tells.
 */
export const FREQUENT_DF_SHARE = 0.02;
export const FREQUENT_DF_FLOOR = 200;

/** The statistics, plus the lexemes too frequent to drive the candidate scan. */
export interface PlanCorpus extends CorpusStats {
  frequent: readonly string[];
}

/** A cache of the plan corpus statistics over a database. */
export function createLexicalStats(db: Pick<Db, 'execute'>, ttlMs = STATS_TTL_MS) {
  let current: { at: number; stats: PlanCorpus } | undefined;
  let pending: Promise<PlanCorpus> | undefined;

  async function load(): Promise<PlanCorpus> {
    // ts_stat's nentry counts occurrences; ndoc is the document frequency BM25 needs.
    const [terms, totals] = await Promise.all([
      db.execute<{ word: string; ndoc: number }>(
        sql`SELECT word, ndoc FROM ts_stat($$SELECT document FROM memory_records WHERE type = 'plan_graph' AND status = 'active'$$)`,
      ),
      db.execute<{ documents: number; lexemes: number | null }>(sql`SELECT count(*)::int AS documents, avg(length(document))::float8 AS lexemes
        FROM memory_records WHERE type = 'plan_graph' AND status = 'active'`),
    ]);
    const df = new Map(terms.rows.map((r) => [r.word, Number(r.ndoc)]));
    const documents = Number(totals.rows[0]?.documents ?? 0);
    const averageLength = Number(totals.rows[0]?.lexemes ?? 0) || 1;
    const cap = Math.max(FREQUENT_DF_FLOOR, documents * FREQUENT_DF_SHARE);
    const frequent = [...df].filter(([, n]) => n > cap).map(([word]) => word);
    const stats: PlanCorpus = { documents: Math.max(documents, 1), averageLength, df: (lexeme) => df.get(lexeme) ?? 0, frequent };
    current = { at: Date.now(), stats };
    return stats;
  }

  function refresh(): Promise<PlanCorpus> {
    pending ??= load().finally(() => (pending = undefined));
    return pending;
  }

  return {
    /** The statistics: cached, refreshed in the background once older than the TTL. */
    async get(): Promise<PlanCorpus> {
      if (!current) return refresh();
      if (Date.now() - current.at > ttlMs) void refresh().catch(() => undefined);
      return current.stats;
    },
    /** Drops the cache (after bulk loads and in tests). */
    invalidate(): void {
      current = undefined;
    },
  };
}

export type LexicalStats = ReturnType<typeof createLexicalStats>;
