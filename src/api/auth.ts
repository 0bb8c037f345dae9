/**
 * How an HTTP request names its API key. Principals and trust rules live in the domain
 * (src/domain/principal.ts); the key store in src/store/api-keys.ts.
 */
import { DomainError } from '../domain/errors';

/**
 * The key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`; undefined
 * (anonymous) when it sends neither. An Authorization header of any other form is refused rather
 * than ignored: its caller would be anonymous and see only confusing 404s.
 */
export function keyFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization;
  if (auth !== undefined) {
    const key = typeof auth === 'string' ? /^bearer\s+(.+)$/i.exec(auth.trim())?.[1]?.trim() : undefined;
    if (!key) throw new DomainError('unauthenticated', 'the Authorization header must be "Bearer <key>"', { field: 'headers.authorization' });
    return key;
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}
