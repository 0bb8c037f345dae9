/**
 * API keys, stored as SHA-256 hashes, each naming a principal and its clearance.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeys } from '../db/schema';
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
      await db.insert(apiKeys).values({ keyHash: hashKey(key), principal, maxSensitivity, scopes: scopes ?? null });
      return { key };
    },
    /** Every key, newest first: what it acts as and whether it is revoked (never the key itself). */
    async list() {
      return db
        .select({ id: apiKeys.id, principal: apiKeys.principal, max_sensitivity: apiKeys.maxSensitivity, scopes: apiKeys.scopes, created_at: apiKeys.createdAt, revoked_at: apiKeys.revokedAt })
        .from(apiKeys)
        .orderBy(desc(apiKeys.createdAt), asc(apiKeys.id));
    },
    /**
     * Revokes a key by id: every later request with it is a 401. Idempotent: revoking it again
     * keeps the first time. Returns when it was revoked, or undefined when no key has that id.
     */
    async revoke(id: string): Promise<Date | undefined> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
        .where(eq(apiKeys.id, id))
        .returning({ revokedAt: apiKeys.revokedAt });
      return row?.revokedAt ?? undefined;
    },
    /** The principal behind a key, or undefined when the key is unknown or revoked. */
    async resolve(key: string): Promise<Principal | undefined> {
      const [row] = await db
        .select({ principal: apiKeys.principal, maxSensitivity: apiKeys.maxSensitivity, scopes: apiKeys.scopes })
        .from(apiKeys)
        .where(and(eq(apiKeys.keyHash, hashKey(key)), isNull(apiKeys.revokedAt)));
      // The column holds only levels written through `create`; trust rules fail closed on anything else.
      return row ? { name: row.principal, authenticated: true, max_sensitivity: row.maxSensitivity as Sensitivity, scopes: row.scopes ?? undefined } : undefined;
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
