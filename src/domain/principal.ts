/**
 * Principals and the trust they grant. The trust used for retrieval and running is the
 * principal's, which a caller may narrow but never widen.
 */
import { DomainError } from './errors';
import { sensitivityRank, type Sensitivity, type TrustContext } from './records';

export interface Principal {
  name: string;
  authenticated: boolean;
  max_sensitivity: Sensitivity;
  /** Scopes the principal may see; undefined = any. */
  scopes?: string[];
}

/** A caller without an API key: public records only. */
export const ANONYMOUS: Principal = { name: 'anonymous', authenticated: false, max_sensitivity: 'public', scopes: undefined };

/**
 * The operator at the terminal: authenticated, cleared for everything, any scope. The CLI acts
 * as it because it holds DATABASE_URL and could read everything anyway.
 */
export const LOCAL_OPERATOR: Principal = { name: 'local-operator', authenticated: true, max_sensitivity: 'hyper', scopes: undefined };

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
