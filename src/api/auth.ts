/**
 * How an HTTP request names its API key. Principals and trust rules live in the domain
 * (src/domain/principal.ts); the key store in src/store/api-keys.ts.
 */

/** The key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function keyFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}
