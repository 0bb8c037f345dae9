/**
 * Episodes: validation and batched insertion. Episodes are immutable once stored, so this store
 * has no update path at all.
 */
import { auditLog, memoryRecords } from '../db/schema';
import type { Db } from '../db/client';
import type { Embedder } from '../embeddings/embedder';
import { formatPath } from '../domain/graph';
import { findCycle, indexGraph } from '../domain/graph-index';
import { newEpisodeSchema, type MemoryRecord, type NewEpisode, type TrustContext } from '../domain/records';
import { assertWritable } from '../domain/trust';
import { DomainError } from '../domain/errors';
import { createRecordStore, embeddingText, recordValues } from './records';
import { bindEpisodeKeys, claimEpisodeKeys, episodeRequestSha256, heldEpisodeKeys } from './episode-keys';

/** What storing an episode did: stored it, found it stored under its key, or found another there. */
export interface EpisodeOutcome {
  status: 'stored' | 'existing' | 'conflict';
  /** The episode stored now, or the one its key holds. */
  id: string;
}

function keyConflict(heldId: string): DomainError {
  return new DomainError('conflict', `idempotency key already used for a different episode (${heldId})`, { field: 'idempotency_key', existing_id: heldId });
}

/** One reason an input is not an episode, naming the field. */
export interface EpisodeProblem {
  field: string;
  message: string;
}

export type EpisodeParseResult = { ok: true; episode: NewEpisode } | { ok: false; problems: EpisodeProblem[] };

/**
 * Tool-graph references the schema cannot see: duplicate node ids, `depends_on` entries naming no
 * node and dependency cycles would make any plan consolidated from the episode unrunnable.
 */
function toolGraphProblems(episode: NewEpisode): EpisodeProblem[] {
  const problems: EpisodeProblem[] = [];
  const ids = new Set<string>();
  episode.payload.tool_graph.forEach((node, i) => {
    if (ids.has(node.id)) problems.push({ field: `payload.tool_graph[${i}].id`, message: `duplicate tool node id "${node.id}"` });
    ids.add(node.id);
  });
  episode.payload.tool_graph.forEach((node, i) => {
    node.depends_on.forEach((dep, j) => {
      if (!ids.has(dep)) {
        problems.push({ field: `payload.tool_graph[${i}].depends_on[${j}]`, message: `no tool node "${dep}" in tool_graph` });
      } else if (dep === node.id) {
        problems.push({ field: `payload.tool_graph[${i}].depends_on[${j}]`, message: 'a call cannot wait on itself' });
      }
    });
  });
  if (problems.length > 0) return problems;
  const edges = episode.payload.tool_graph.flatMap((node) => node.depends_on.map((dep) => ({ from: dep, to: node.id, kind: 'control' as const })));
  const cycle = findCycle(indexGraph(episode.payload.tool_graph, edges));
  if (cycle) {
    const at = episode.payload.tool_graph.findIndex((node) => node.id === cycle[0]);
    problems.push({ field: `payload.tool_graph[${at}].depends_on`, message: `a call cannot wait on itself: cycle through ${[...cycle, cycle[0]].join(' -> ')}` });
  }
  return problems;
}

/**
 * Validates untrusted input as a new episode; every problem is reported with its field, prefixed
 * by `where` (e.g. "body") when given.
 */
export function parseEpisode(input: unknown, where = ''): EpisodeParseResult {
  const parsed = newEpisodeSchema.safeParse(input);
  const problems = parsed.success
    ? toolGraphProblems(parsed.data)
    : parsed.error.issues.map((issue) => ({ field: formatPath(issue.path), message: issue.message }));
  if (parsed.success && problems.length === 0) return { ok: true, episode: parsed.data };
  return { ok: false, problems: problems.map((p) => ({ ...p, field: [where, p.field].filter(Boolean).join('.') || '(root)' })) };
}

/** Creates the episode store over a database and an optional embedder. */
export function createEpisodeStore(db: Db, embedder?: Embedder) {
  const records = createRecordStore(db, embedder);
  return {
    /**
     * Stores validated episodes with one multi-row INSERT (and one for their audit entries) in one
     * transaction, each once per idempotency key of `principal`; returns what became of each, in
     * input order. A key already held answers with its episode: `existing` when it is the same
     * episode, `conflict` when not (nothing is stored for it).
     */
    async store(episodes: readonly NewEpisode[], principal = 'ingest'): Promise<EpisodeOutcome[]> {
      if (episodes.length === 0) return [];
      const digests = episodes.map((e) => (e.idempotency_key === undefined ? undefined : episodeRequestSha256(e)));
      const keys = episodes.flatMap((e) => (e.idempotency_key === undefined ? [] : [e.idempotency_key]));
      // Retries are not embedded again (an embedder may be a paid API); done before the
      // transaction, which holds no locks over the embedder's network calls.
      const heldBefore = await heldEpisodeKeys(db, principal, keys);
      const toEmbed = episodes.flatMap((e, i) => (e.idempotency_key !== undefined && heldBefore.has(e.idempotency_key) ? [] : [i]));
      const vectors = embedder && toEmbed.length > 0 ? await embedder.embed(toEmbed.map((i) => embeddingText(episodes[i]!.payload))) : [];
      const embeddings = new Map(toEmbed.map((i, k) => [i, vectors[k]]));
      return db.transaction(async (tx) => {
        // A key repeated within the batch is claimed by its first line; the others answer to it.
        const firstOfKey = new Map<string, number>();
        episodes.forEach((e, i) => {
          if (e.idempotency_key !== undefined && !firstOfKey.has(e.idempotency_key)) firstOfKey.set(e.idempotency_key, i);
        });
        const claimed = await claimEpisodeKeys(tx, principal, [...firstOfKey].map(([key, i]) => ({ key, requestSha256: digests[i]! })));
        const fresh = episodes.flatMap((e, i) => (e.idempotency_key === undefined || (claimed.has(e.idempotency_key) && firstOfKey.get(e.idempotency_key) === i) ? [i] : []));
        const values = fresh.map((i) => {
          const { idempotency_key: _key, ...episode } = episodes[i]!;
          return recordValues({ type: 'episodic', ...episode, embedding: embeddings.get(i) ?? null, embedder: embedder?.name });
        });
        const rows = values.length > 0 ? await tx.insert(memoryRecords).values(values).returning({ id: memoryRecords.id }) : [];
        const ids = new Map(fresh.map((i, k) => [i, rows[k]!.id]));
        if (rows.length > 0) await tx.insert(auditLog).values(rows.map((r) => ({ recordId: r.id, action: 'create', actor: principal, revision: 1 })));
        await bindEpisodeKeys(tx, principal, [...claimed].map((key) => ({ key, recordId: ids.get(firstOfKey.get(key)!)! })));
        // Keys held before (or claimed above for an earlier line of this batch) answer the rest.
        const held = await heldEpisodeKeys(tx, principal, episodes.flatMap((e, i) => (ids.has(i) ? [] : [e.idempotency_key!])));
        return episodes.map((e, i): EpisodeOutcome => {
          const id = ids.get(i);
          if (id) return { status: 'stored', id };
          const holding = held.get(e.idempotency_key!)!;
          return { status: holding.requestSha256 === digests[i] ? 'existing' : 'conflict', id: holding.recordId };
        });
      });
    },

    /** Stores episodes of a trusted caller (tests, tools) and returns their ids; any key conflict throws. */
    async insertMany(episodes: readonly NewEpisode[], principal = 'ingest'): Promise<string[]> {
      const outcomes = await this.store(episodes, principal);
      const conflict = outcomes.find((o) => o.status === 'conflict');
      if (conflict) throw keyConflict(conflict.id);
      return outcomes.map((o) => o.id);
    },

    /**
     * Validates and stores one episode; bad input is a `bad_request` naming each field, an
     * episode above the caller's clearance or outside its scopes `forbidden` (no trust: the operator).
     * `existing` when its idempotency key already held this episode (nothing new is stored).
     */
    async create(input: unknown, options: { actor?: string; where?: string; trust?: TrustContext } = {}): Promise<{ record: MemoryRecord; existing: boolean }> {
      const parsed = parseEpisode(input, options.where);
      if (!parsed.ok) {
        const fields = parsed.problems;
        throw new DomainError('bad_request', `invalid episode: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`, { fields });
      }
      assertWritable(parsed.episode, options.trust, 'episode');
      const [outcome] = await this.store([parsed.episode], options.actor ?? 'api');
      if (outcome!.status === 'conflict') throw keyConflict(outcome!.id);
      return { record: (await records.get(outcome!.id))!, existing: outcome!.status === 'existing' };
    },
  };
}

export type EpisodeStore = ReturnType<typeof createEpisodeStore>;
