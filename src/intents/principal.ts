/**
 * Who a non-HTTP caller is: the CLI runs as the local operator (it holds DATABASE_URL, so it can
 * read everything anyway); the MCP server runs as the principal of its configured API key.
 */
import type { ApiKeyStore, Principal } from '../api/auth';
import { DomainError } from '../errors';

/** The operator at the terminal: authenticated, cleared for everything, any scope. */
export const LOCAL_OPERATOR: Principal = { name: 'local-operator', authenticated: true, max_sensitivity: 'hyper', scopes: undefined };

/** The principal behind an API key, or `fallback` without one; an unknown key is an error. */
export async function principalForKey(apiKeys: Pick<ApiKeyStore, 'resolve'>, key: string | undefined, fallback: Principal): Promise<Principal> {
  if (key === undefined) return fallback;
  const principal = await apiKeys.resolve(key);
  if (!principal) throw new DomainError('unauthenticated', 'unknown or revoked API key');
  return principal;
}
