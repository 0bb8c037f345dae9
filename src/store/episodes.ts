/**
 * Episodes: validation and batched insertion. Episodes are immutable once stored, so this store
 * has no update path at all.
 */
import { auditLog, memoryRecords } from '../db/schema';
import type { Db } from '../db/client';
import type { Embedder } from '../embeddings/embedder';
import { formatPath } from '../domain/graph';
import { newEpisodeSchema, type MemoryRecord, type NewEpisode, type TrustContext } from '../domain/records';
import { assertWritable } from '../domain/trust';
import { DomainError } from '../domain/errors';
import { createRecordStore, embeddingText, recordValues } from './records';

/** One reason an input is not an episode, naming the field. */
export interface EpisodeProblem {
  field: string;
  message: string;
}

export type EpisodeParseResult = { ok: true; episode: NewEpisode } | { ok: false; problems: EpisodeProblem[] };

/**
 * Tool-graph references the schema cannot see: duplicate node ids and `depends_on` entries
 * naming no node would make any plan consolidated from the episode unrunnable.
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
      }
    });
  });
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
     * Inserts validated episodes with one multi-row INSERT (and one for their audit entries) in
     * one transaction; returns their ids in input order.
     */
    async insertMany(episodes: readonly NewEpisode[], actor = 'ingest'): Promise<string[]> {
      if (episodes.length === 0) return [];
      const embeddings = embedder ? await embedder.embed(episodes.map((e) => embeddingText(e.payload))) : [];
      const values = episodes.map((e, i) => recordValues({ type: 'episodic', ...e, embedding: embeddings[i] ?? null, embedder: embedder?.name }));
      return db.transaction(async (tx) => {
        const rows = await tx.insert(memoryRecords).values(values).returning({ id: memoryRecords.id });
        const ids = rows.map((r) => r.id);
        await tx.insert(auditLog).values(ids.map((recordId) => ({ recordId, action: 'create', actor, revision: 1 })));
        return ids;
      });
    },

    /**
     * Validates and stores one episode; bad input is a `bad_request` naming each field, an
     * episode above the caller's clearance or outside its scopes `forbidden` (no trust: the operator).
     */
    async create(input: unknown, options: { actor?: string; where?: string; trust?: TrustContext } = {}): Promise<MemoryRecord> {
      const parsed = parseEpisode(input, options.where);
      if (!parsed.ok) {
        const fields = parsed.problems;
        throw new DomainError('bad_request', `invalid episode: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`, { fields });
      }
      assertWritable(parsed.episode, options.trust, 'episode');
      const [id] = await this.insertMany([parsed.episode], options.actor ?? 'api');
      return (await records.get(id!))!;
    },
  };
}

export type EpisodeStore = ReturnType<typeof createEpisodeStore>;
