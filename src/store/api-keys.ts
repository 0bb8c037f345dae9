/**
 * API keys, stored as SHA-256 hashes, each naming a principal and its clearance.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { DomainError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import type { Sensitivity } from '../domain/records';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Creates the API-key store. */
export function createApiKeyStore(db: Db) {
  return {
    /** Issues a new key; the plain key is returned once and never stored. */
    async create(principal: string, maxSensitivity: Sensitivity, scopes?: string[]): Promise<{ key: string }> {
      const key = `pg_${randomBytes(24).toString('base64url')}`;
      await db.execute(sql`INSERT INTO api_keys (key_hash, principal, max_sensitivity, scopes)
        VALUES (${hashKey(key)}, ${principal}, ${maxSensitivity}, ${scopes ? sql`${sql.param(scopes)}::text[]` : null})`);
      return { key };
    },
    /** The principal behind a key, or undefined when the key is unknown or revoked. */
    async resolve(key: string): Promise<Principal | undefined> {
      const result = await db.execute<{ principal: string; max_sensitivity: Sensitivity; scopes: string[] | null }>(
        sql`SELECT principal, max_sensitivity, scopes FROM api_keys WHERE key_hash = ${hashKey(key)} AND revoked_at IS NULL`,
      );
      const row = result.rows[0];
      return row ? { name: row.principal, authenticated: true, max_sensitivity: row.max_sensitivity, scopes: row.scopes ?? undefined } : undefined;
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;

/** The principal behind an API key, or `fallback` without one; an unknown key is an error. */
export async function principalForKey(apiKeys: Pick<ApiKeyStore, 'resolve'>, key: string | undefined, fallback: Principal): Promise<Principal> {
  if (key === undefined) return fallback;
  const principal = await apiKeys.resolve(key);
  if (!principal) throw new DomainError('unauthenticated', 'unknown or revoked API key');
  return principal;
}
