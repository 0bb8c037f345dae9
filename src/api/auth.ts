/**
 * API keys and the trust they grant. Keys are stored as SHA-256 hashes; the trust used for
 * retrieval and running is the principal's, which a caller may narrow but never widen.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sensitivityRank, type Sensitivity, type TrustContext } from '../domain/records';
import { DomainError } from '../errors';

export interface Principal {
  name: string;
  authenticated: boolean;
  max_sensitivity: Sensitivity;
  /** Scopes the principal may see; undefined = any. */
  scopes?: string[];
}

export const ANONYMOUS: Principal = { name: 'anonymous', authenticated: false, max_sensitivity: 'public', scopes: undefined };

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

/** The key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function keyFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}

/**
 * The trust a request runs under: the principal's, narrowed by what the caller asked for.
 * Asking for more than the principal has is refused (403), never silently granted.
 */
export function effectiveTrust(principal: Principal, requested?: Partial<TrustContext>): TrustContext {
  if (requested?.max_sensitivity && sensitivityRank(requested.max_sensitivity) > sensitivityRank(principal.max_sensitivity)) {
    throw new DomainError('forbidden', `requested max_sensitivity "${requested.max_sensitivity}" exceeds this caller's "${principal.max_sensitivity}"`);
  }
  if (requested?.authenticated && !principal.authenticated) {
    throw new DomainError('forbidden', 'requested authenticated trust without an API key');
  }
  let scopes = principal.scopes;
  if (requested?.scopes) {
    const outside = principal.scopes ? requested.scopes.filter((s) => !principal.scopes!.includes(s)) : [];
    if (outside.length > 0) throw new DomainError('forbidden', `scopes not granted to this caller: ${outside.join(', ')}`);
    scopes = requested.scopes;
  }
  return {
    max_sensitivity: requested?.max_sensitivity ?? principal.max_sensitivity,
    authenticated: principal.authenticated && requested?.authenticated !== false,
    scopes,
  };
}
