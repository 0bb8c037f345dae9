/**
 * Request ids and idempotency keys an agent made up for one call. Replayed as a literal, the next
 * run would send the old token and the service would take it for a retry of the old request (a
 * refund deduplicated into a no-op); `{{run.id}}` gives every run a token of its own, which the
 * run's retries share.
 */
import type { PlanGraphPayload } from '../domain/records';
import { leaves, withLeaf } from './json-leaves';

export const RUN_ID_REF = '{{run.id}}';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Words of a key that make a token of a request (`request_id`, `Idempotency-Key`, `dedupeKey`, `correlationId`). */
const REQUEST_WORDS: ReadonlySet<string> = new Set(['request', 'req', 'idempotency', 'idempotent', 'dedup', 'dedupe', 'deduplication', 'correlation', 'trace']);
const TOKEN_WORDS: ReadonlySet<string> = new Set(['id', 'key', 'token', 'uuid']);

/**
 * Whether a param's key names a token made for one request: a request word and a token word
 * (`request_id`, `X-Request-ID`, `idempotencyKey`), a client token (`client_token`,
 * `ClientRequestToken`; not `client_id`, which names a registered client), or a nonce.
 */
export function namesRequestToken(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words.at(-1) ?? '';
  if (last === 'nonce' || (words.length === 1 && (last === 'idempotency' || last === 'requestid'))) return true;
  if (!TOKEN_WORDS.has(last)) return false;
  return words.some((w) => REQUEST_WORDS.has(w)) || (words.includes('client') && last === 'token');
}

/**
 * The plan with the UUID that a request token's param holds literally written `{{run.id}}`,
 * wherever a param holds it (inside a longer string too: `refund-{{run.id}}`; a later call that
 * looks the request up by it). A UUID the task named is an input, and one an earlier result held a
 * data edge, by then; only what is left was made up. When an episode made up several different
 * tokens, it kept them apart (two charges, each its own key), so all stay as they were: one run
 * id for both would make the second a retry of the first.
 */
export function runScopedTokens(plan: PlanGraphPayload): PlanGraphPayload {
  const tokens = new Set(
    plan.nodes.flatMap((node) =>
      leaves(node.params).flatMap((leaf) => {
        const key = [...leaf.path].reverse().find((segment): segment is string => typeof segment === 'string');
        if (typeof leaf.value !== 'string' || key === undefined || !namesRequestToken(key) || leaf.value.includes('{{')) return [];
        return (leaf.value.match(UUID) ?? []).map((token) => token.toLowerCase());
      }),
    ),
  );
  if (tokens.size !== 1) return plan;
  const [token] = tokens;
  const holds = (value: unknown): value is string => typeof value === 'string' && !value.includes('{{') && value.toLowerCase().includes(token!);
  const nodes = plan.nodes.map((node) => {
    let params: unknown = node.params;
    for (const leaf of leaves(node.params)) {
      if (holds(leaf.value)) params = withLeaf(params, leaf.path, leaf.value.replace(UUID, (uuid) => (uuid.toLowerCase() === token ? RUN_ID_REF : uuid)));
    }
    return params === node.params ? node : { ...node, params: params as Record<string, unknown> };
  });
  return { ...plan, nodes };
}
