/**
 * Idempotency keys of episodes (table `episode_keys`): claimed in the transaction that stores
 * their episodes, so two submissions under one key never both store one, however they race.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { episodeKeys } from '../db/schema';
import type { Db } from '../db/client';
import { canonicalJson } from '../domain/canonical-json';
import type { NewEpisode } from '../domain/records';
import type { Tx } from './plan-lock';

type Queryable = Db | Tx;

/** What a key holds: the episode stored under it and the digest of that episode. */
export interface HeldKey {
  recordId: string;
  requestSha256: string;
}

/** The digest a key is compared by: the whole episode (envelope and payload) but its key. */
export function episodeRequestSha256(episode: NewEpisode): string {
  const { idempotency_key: _key, ...request } = episode;
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/**
 * Inserts the keys no earlier submission holds (a key held by a transaction still open waits for
 * it); returns those this transaction now holds.
 */
export async function claimEpisodeKeys(tx: Tx, principal: string, claims: ReadonlyArray<{ key: string; requestSha256: string }>): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const rows = await tx
    .insert(episodeKeys)
    .values(claims.map((c) => ({ principal, key: c.key, requestSha256: c.requestSha256 })))
    .onConflictDoNothing()
    .returning({ key: episodeKeys.key });
  return new Set(rows.map((r) => r.key));
}

/** Points claimed keys at the episodes stored for them, in the transaction that claimed them. */
export async function bindEpisodeKeys(tx: Tx, principal: string, bound: ReadonlyArray<{ key: string; recordId: string }>): Promise<void> {
  if (bound.length === 0) return;
  await tx.execute(sql`
    UPDATE ${episodeKeys} SET record_id = bound.record_id
    FROM unnest(${sql.param(bound.map((b) => b.key))}::text[], ${sql.param(bound.map((b) => b.recordId))}::uuid[]) AS bound(key, record_id)
    WHERE ${episodeKeys.principal} = ${principal} AND ${episodeKeys.key} = bound.key`);
}

/** The keys among `keys` that already hold an episode, with what they hold. */
export async function heldEpisodeKeys(db: Queryable, principal: string, keys: readonly string[]): Promise<Map<string, HeldKey>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: episodeKeys.key, recordId: episodeKeys.recordId, requestSha256: episodeKeys.requestSha256 })
    .from(episodeKeys)
    .where(and(eq(episodeKeys.principal, principal), sql`${episodeKeys.key} = ANY(${sql.param([...new Set(keys)])}::text[])`));
  return new Map(rows.flatMap((r) => (r.recordId ? [[r.key, { recordId: r.recordId, requestSha256: r.requestSha256 }] as const] : [])));
}
