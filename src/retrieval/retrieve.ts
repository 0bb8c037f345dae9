/**
 * Retrieval and selection. Candidates are gathered in SQL — trust and status filters in the
 * WHERE clause, lexical matches of the plan document through its GIN index, nearest embeddings
 * through the HNSW index — and only that short list is scored exactly in JavaScript (BM25F,
 * cosine, fused match, calibrated confidence). Never loads every record.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { memoryTypeSchema, trustContextSchema, type MemoryRecord, type TrustContext } from '../domain/records';
import { parseTsvector, lexicalMatch } from '../domain/lexical';
import { planDocument } from '../domain/plan-document';
import { contentWords } from '../domain/content-words';
import { aliasMatch, exactCoverage } from '../domain/alias-match';
import { phrasingTemplates, templateMatch, type PhrasingTemplates } from '../domain/phrasing-template';
import { wordsOf } from '../domain/input-suggestions';
import { actionConflict, furtherActionConflict, planActionNames } from '../domain/action-words';
import { valueConflicts } from '../domain/fixed-values';
import { calibratedScoreRecord, MEMBRANE_THRESHOLD, scoreRecord, select, type ScoreSignals, type Selection } from '../domain/scoring';
import {
  CALIBRATED_THRESHOLD,
  calibratedSelect,
  fusedMatch,
  MAX_TASK_DESCRIPTOR_CHARS,
  reciprocalRankFusion,
  type Calibration,
  type MatchKind,
  type SelectionMode,
} from '../domain/selection';
import { createLexicalStats } from './lexical-stats';
import { redact, runnableBy, visibility, type RedactedRecord } from '../domain/trust';
import type { Embedder } from '../embeddings/embedder';
import { trustWhere } from './trust-sql';
import { retrievalDuration } from '../telemetry/metrics';
import { RECORD_COLUMNS, toMemoryRecord, type RecordRow } from '../store/records';

export const retrieveRequestSchema = z.strictObject({
  task_descriptor: z.string().min(1).max(MAX_TASK_DESCRIPTOR_CHARS),
  /** Required: a missing trust context is an error, never a default. */
  trust: trustContextSchema,
  memory_types: z.array(memoryTypeSchema).default(['plan_graph']),
  limit: z.number().int().min(1).max(100).default(10),
});
export type RetrieveRequest = z.input<typeof retrieveRequestSchema>;

/** One ranked record with its score and the signals behind it. */
export interface ScoredCandidate {
  record: MemoryRecord | RedactedRecord;
  redacted: boolean;
  score: number;
  signals: ScoreSignals;
}

export interface RetrieveResult {
  candidates: ScoredCandidate[];
  selection: Selection & { mode: SelectionMode };
}

/**
 * Whether a candidate can be chosen to run: a fully visible plan graph the caller may run.
 * Redacted records and other memory types are listed but never selected, and do not count
 * for the selection confidence.
 */
export function isSelectable(candidate: ScoredCandidate, trust: TrustContext): candidate is ScoredCandidate & { record: MemoryRecord } {
  if (candidate.redacted) return false;
  const record = candidate.record as MemoryRecord;
  return record.payload.kind === 'plan_graph' && runnableBy(record.payload, trust);
}

/** How many nearest neighbours to fetch for `limit` results: enough for exact re-scoring to reorder. */
export function candidatePoolSize(limit: number): number {
  return Math.max(limit * 5, 50);
}

/** Plans whose document words a retriever keeps (dropped whole when full: cheap to recompute). */
const DOCUMENT_WORD_CACHE = 20_000;

type CandidateRow = RecordRow & { distance: number | null; document: string | null; aliases: string[] | null; lexemes: string[] | null };

export interface RetrieverOptions {
  db: Db;
  embedder?: Embedder;
  /** Auto-run threshold; by default 0.7 for the membrane formula, CALIBRATED_THRESHOLD otherwise. */
  threshold?: number;
  /** `calibrated` (default) or the seed `membrane` formula. */
  mode?: SelectionMode;
  /** Evidence of the calibrated match: both fused (default), or one alone. */
  match?: MatchKind;
  /** Fused match by calibrated weights (default) or reciprocal rank fusion, for comparison. */
  fusion?: 'weighted' | 'rrf';
  calibration?: Calibration;
  /** Match tasks against learned plans' phrasing templates (default true; off for comparison). */
  phrasingTemplates?: boolean;
}

/** Creates the retriever over a database, an optional embedder and the selection settings. */
export function createRetriever(options: RetrieverOptions) {
  const { db, embedder } = options;
  const mode = options.mode ?? 'calibrated';
  const matchKind = options.match ?? 'hybrid';
  const threshold = options.threshold ?? (mode === 'membrane' ? MEMBRANE_THRESHOLD : CALIBRATED_THRESHOLD);
  const lexicalOn = mode === 'calibrated' && matchKind !== 'dense';
  const denseOn = mode === 'membrane' || matchKind !== 'lexical';
  const stats = createLexicalStats(db);

  async function queryEmbedding(text: string): Promise<number[] | undefined> {
    if (!embedder || !denseOn) return undefined;
    const [vector] = await embedder.embed([text]);
    // A zero vector (text with no features) has no direction: cosine would be undefined.
    return vector && vector.some((v) => v !== 0) ? vector : undefined;
  }

  /**
   * The candidates in one round trip: no transaction, no settings (the HNSW scan settings come with
   * every connection, see src/db/client.ts), the task's lexemes computed in the same statement and
   * returned with each row.
   */
  async function gather(trust: TrustContext, types: string[], pool: number, text: string, query: number[] | undefined) {
    // A single type is an equality, so the ordered partial index on (type, confidence) applies.
    const typeIs = types.length === 1 ? sql`r.type = ${types[0]}` : sql`r.type = ANY(${sql.param(types)}::text[])`;
    const where = sql`${typeIs} AND r.status = 'active' AND ${trustWhere(trust)}`;
    // Calibrated mode compares only vectors of the query's embedder (rows from before the column: unknown, compared).
    const sameEmbedder = mode === 'membrane' || !embedder ? sql`TRUE` : sql`(r.embedder = ${embedder.name} OR r.embedder IS NULL)`;
    // The task's vector is sent once (task_vector below) and referenced as an InitPlan parameter, which the HNSW index accepts.
    const vector = query ? sql`(SELECT v FROM task_vector)` : undefined;
    // Statistics are cached per process: only the first query (and one every few minutes, in the background) reads them.
    const corpus = lexicalOn ? await stats.get() : undefined;
    const branches = [
      // No embedder filter here: were every vector another embedder's (EMBEDDER changed, no rebuild yet), a
      // filtered scan would walk the whole index. Such candidates are scored lexically only (distance below).
      vector && sql`(SELECT r.id FROM memory_records r WHERE ${where} AND r.embedding IS NOT NULL
          ORDER BY r.embedding <=> ${vector} LIMIT ${pool})`,
      // Lexemes found in too many plans (corpus.frequent) still score but do not drive this scan.
      corpus && sql`(SELECT r.id FROM memory_records r, task_query t WHERE t.scan IS NOT NULL AND ${where}
          AND r.document @@ t.scan ORDER BY ts_rank(r.document, t.scan) DESC, r.id LIMIT ${pool})`,
      // Plans whose learned aliases share a word with the task: a repeat of a learned task is always gathered.
      corpus && sql`(SELECT r.id FROM memory_records r, task_query t WHERE t.scan IS NOT NULL AND ${where}
          AND r.aliases_document @@ t.scan ORDER BY ts_rank(r.aliases_document, t.scan) DESC, r.id LIMIT ${pool})`,
      // The seed formula also ranks records without a usable embedding, by confidence.
      mode === 'membrane' &&
        sql`(SELECT r.id FROM memory_records r WHERE ${where} ${vector ? sql`AND r.embedding IS NULL` : sql``}
          ORDER BY r.confidence DESC NULLS LAST, r.id LIMIT ${pool})`,
    ].filter((b): b is SQL => Boolean(b));
    if (branches.length === 0) return { rows: [] as CandidateRow[], lexemes: [] as string[], corpus };
    const distance = vector ? sql`CASE WHEN ${sameEmbedder} THEN r.embedding <=> ${vector} END` : sql`NULL::float8`;
    // The task's lexemes: the same word splitting and English stemming as the plan document.
    const ctes = [
      query && sql`task_vector AS MATERIALIZED (SELECT ${vectorLiteral(query)}::vector AS v)`,
      corpus && sql`task_lexemes AS MATERIALIZED (SELECT tsvector_to_array(to_tsvector('english', plan_document_words(${text}))) AS lexemes)`,
      corpus &&
        sql`task_query AS MATERIALIZED (SELECT lexemes, (SELECT to_tsquery('simple', string_agg(l, ' | ')) FROM unnest(lexemes) l
          WHERE l ~ '^[[:alnum:]]+$' AND NOT l = ANY(${sql.param([...corpus.frequent])}::text[])) AS scan FROM task_lexemes)`,
    ].filter((c): c is SQL => Boolean(c));
    const taskQuery = ctes.length > 0 ? sql`WITH ${sql.join(ctes, sql`, `)} ` : sql``;
    const result = await db.execute<CandidateRow>(sql`${taskQuery}SELECT ${RECORD_COLUMNS}, ${distance} AS distance,
        ${corpus ? sql`r.document::text AS document, (SELECT lexemes FROM task_query) AS lexemes` : sql`NULL::text AS document, NULL::text[] AS lexemes`}, r.aliases
      FROM (${sql.join(branches, sql` UNION `)}) c JOIN memory_records r ON r.id = c.id LEFT JOIN plan_stats s ON s.plan_id = r.id`);
    const lexemes = (result.rows[0]?.lexemes ?? []).filter((l) => /^[\p{L}\p{N}]+$/u.test(l));
    return { rows: result.rows, lexemes, corpus };
  }

  const documentWordCache = new Map<string, string[]>();
  /** Each plan's phrasing templates (null: it has none), by the same key as its document words. */
  const templateCache = new Map<string, PhrasingTemplates | null>();
  /** Each plan's defining words (definingWordsOf), by the same key. */
  const definingWordCache = new Map<string, ReadonlySet<string>>();
  /** Everything a plan's document and templates are made of is in the key, so an edit never reads stale words. */
  const recordKey = (record: MemoryRecord) => `${record.id}|${record.revision}|${record.updated_at}|${record.tags.join('|')}`;

  /** `make()` for a record, computed once per version of it and kept in `cache` (bounded). */
  function perRecord<T>(cache: Map<string, T>, record: MemoryRecord, make: () => T): T {
    const key = recordKey(record);
    if (cache.has(key)) return cache.get(key)!;
    const value = make();
    if (cache.size >= DOCUMENT_WORD_CACHE) cache.clear();
    cache.set(key, value);
    return value;
  }

  function templatesOf(record: MemoryRecord): PhrasingTemplates | undefined {
    if (record.payload.kind !== 'plan_graph' || options.phrasingTemplates === false) return undefined;
    const payload = record.payload;
    return perRecord(templateCache, record, () => phrasingTemplates(payload) ?? null) ?? undefined;
  }

  /** The words of a plan's name and description section: what it says it does. */
  function definingWordsOf(record: MemoryRecord): ReadonlySet<string> {
    if (record.payload.kind !== 'plan_graph') return new Set();
    const payload = record.payload;
    return perRecord(definingWordCache, record, () => {
      const { name, about } = planDocument(payload, { tags: record.tags });
      return new Set(contentWords(`${name} ${about}`));
    });
  }

  /** Word alignment of the task against each plan's document, where the embedder offers it (calibrated mode). */
  async function alignmentsOf(task: string, rows: readonly CandidateRow[], records: readonly MemoryRecord[]): Promise<Array<number | undefined>> {
    if (!embedder?.align || !denseOn || mode !== 'calibrated') return records.map(() => undefined);
    const plans = records.flatMap((record, i) => (record.payload.kind === 'plan_graph' ? [{ i, payload: record.payload }] : []));
    const documents = plans.map(({ i, payload }) => {
      const record = records[i]!;
      return perRecord(documentWordCache, record, () => contentWords(Object.values(planDocument(payload, { tags: record.tags })).join(' ')));
    });
    const scores = await embedder.align(task, documents);
    const out = new Array<number | undefined>(records.length).fill(undefined);
    plans.forEach(({ i }, k) => (out[i] = scores[k]));
    return out;
  }

  /**
   * Each plan's match against its learned aliases as whole phrasings (calibrated mode; undefined
   * without aliases): of the aliases the task says the defining words of, two-way word-vector
   * coverage where the embedder offers it, else exact words.
   * A task that fills one of the plan's phrasing templates with its own values matches as well as
   * that template does (src/domain/phrasing-template.ts).
   */
  async function aliasMatchesOf(task: string, rows: readonly CandidateRow[], records: readonly MemoryRecord[]): Promise<Array<number | undefined>> {
    if (mode !== 'calibrated') return rows.map(() => undefined);
    const taskWords = contentWords(task);
    const taskText = wordsOf(task);
    const aligner = denseOn ? embedder?.align?.bind(embedder) : undefined;
    const learned = async (all: string[], record: MemoryRecord) => {
      if (all.length === 0) return undefined;
      // An alias counts only when the task says each of its words the plan's own name and
      // description say too: "stop the shipping-api service" beside a learned "restart the
      // shipping-api service" is another request, however close word vectors put stop and restart.
      const defining = definingWordsOf(record);
      const said = new Set(taskWords);
      const aliases = all.filter((alias) => contentWords(alias).every((w) => !defining.has(w) || said.has(w)));
      if (aliases.length === 0) return 0;
      const words = aliases.map((alias) => contentWords(alias));
      if (!aligner) return aliasMatch(words.map((w) => exactCoverage(taskWords, w)), words.map((w) => exactCoverage(w, taskWords)));
      const forward = await aligner(task, words);
      const backward = await Promise.all(aliases.map(async (alias) => (await aligner(alias, [taskWords]))[0]!));
      return aliasMatch(forward, backward);
    };
    return Promise.all(
      rows.map(async (row, i) => {
        const templates = templatesOf(records[i]!);
        const template = templates && templateMatch(taskText, templates);
        const alias = await learned(row.aliases ?? [], records[i]!);
        return alias === undefined || template === undefined ? (alias ?? template) : Math.max(alias, template);
      }),
    );
  }

  /** Ranks the records matching a task for a caller, with the selection verdict. */
  async function rank(request: RetrieveRequest, now: Date): Promise<RetrieveResult> {
    const { task_descriptor, trust, memory_types, limit } = retrieveRequestSchema.parse(request);
    const query = await queryEmbedding(task_descriptor);
    const { rows, lexemes, corpus } = await gather(trust, [...new Set(memory_types)], candidatePoolSize(limit), task_descriptor, query);
    const records = rows.map(toMemoryRecord);
    const [alignments, aliasMatches] = await Promise.all([alignmentsOf(task_descriptor, rows, records), aliasMatchesOf(task_descriptor, rows, records)]);
    const evidence = rows.map((row, i) => {
      const cosine = row.distance == null || Number.isNaN(Number(row.distance)) ? undefined : 1 - Number(row.distance);
      const lexical = corpus ? lexicalMatch(lexemes, parseTsvector(row.document), corpus) : undefined;
      return { record: records[i]!, cosine, lexical, alignment: alignments[i], alias: aliasMatches[i] };
    });
    // A plan matches a task as well as its document or one of its learned aliases does.
    const matches = mode === 'calibrated' ? matchesOf(evidence, matchKind, options.fusion ?? 'weighted').map((m, i) => Math.max(m, evidence[i]!.alias ?? 0)) : [];
    const scored = evidence
      .map(({ record, cosine, lexical, alignment, alias }, i): ScoredCandidate => {
        const { score, signals } =
          mode === 'membrane' ? scoreRecord(record, now, cosine) : calibratedScoreRecord(record, now, { match: matches[i]!, cosine, lexical, alignment, alias });
        const redacted = visibility(record, trust) === 'redacted';
        return { record: redacted ? redact(record) : record, redacted, score, signals };
      })
      .sort((a, b) => b.score - a.score || b.record.confidence - a.record.confidence || a.record.id.localeCompare(b.record.id));
    // Selection looks at the whole pool, so a close runner-up beyond `limit` still lowers confidence.
    const selectable = scored.filter((c) => isSelectable(c, trust));
    const selection =
      mode === 'membrane'
        ? select(selectable.map((c) => c.score), threshold)
        : calibratedSelect(selectable.map((c) => ({ match: c.signals.applicability, score: c.score })), threshold, options.calibration);
    return { candidates: scored.slice(0, limit), selection: { ...withGates(selection, task_descriptor, selectable[0]?.record, rows), mode } };
  }

  return {
    /** Ranks the records matching a task for a caller, with the selection verdict (timed for /metrics). */
    retrieve(request: RetrieveRequest, now: Date = new Date()): Promise<RetrieveResult> {
      return retrievalDuration.time(() => rank(request, now));
    },
  };
}

/**
 * The selection, held back from auto-running when the top plan does another action than the
 * task's verb asks for (src/domain/action-words.ts), or would replace a value the task names with
 * one it keeps fixed (src/domain/fixed-values.ts); its confidence is left as computed.
 */
function withGates(selection: Selection, task: string, top: MemoryRecord | undefined, rows: readonly CandidateRow[]): Selection {
  if (selection.needs_more || top?.payload.kind !== 'plan_graph') return selection;
  const aliases = rows.find((row) => row.id === top.id)?.aliases ?? [];
  const names = planActionNames(top.payload, aliases);
  const conflict = actionConflict(task, names) ?? furtherActionConflict(task, [...names, top.payload.description ?? '', ...top.payload.nodes.map((node) => `${node.id} ${node.op} ${JSON.stringify(node.params)}`)]);
  if (conflict) return { ...selection, needs_more: true, action_conflict: conflict };
  const fixed = valueConflicts(top.payload, task);
  return fixed.length > 0 ? { ...selection, needs_more: true, value_conflict: fixed } : selection;
}

/** The fused match of every candidate: calibrated weights, or reciprocal ranks within the pool. */
function matchesOf(evidence: ReadonlyArray<{ cosine?: number; lexical?: number; alignment?: number }>, kind: MatchKind, fusion: 'weighted' | 'rrf'): number[] {
  if (fusion === 'weighted' || kind !== 'hybrid') return evidence.map((e) => fusedMatch(kind, e.lexical, e));
  const rankBy = (value: (e: (typeof evidence)[number]) => number) => {
    const order = evidence.map((e, i) => [value(e), i] as const).sort((a, b) => b[0] - a[0]);
    // Equal values share a rank (1224 ranking), so the result does not depend on the order rows arrive in.
    const ranks = new Array<number>(evidence.length);
    order.forEach(([value, i], rank) => (ranks[i] = rank > 0 && order[rank - 1]![0] === value ? ranks[order[rank - 1]![1]]! : rank + 1));
    return ranks;
  };
  const lexRanks = rankBy((e) => e.lexical ?? 0);
  const denseRanks = rankBy((e) => e.alignment ?? e.cosine ?? -1);
  return evidence.map((_, i) => reciprocalRankFusion(lexRanks[i]!, denseRanks[i]!));
}

export type Retriever = ReturnType<typeof createRetriever>;

/** pgvector's text form of a vector, at the single precision pgvector stores (shorter to send and parse). */
function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((v) => (v === 0 ? '0' : v.toPrecision(9))).join(',')}]`;
}
