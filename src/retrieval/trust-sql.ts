/**
 * The trust filter as a SQL condition on `memory_records r`, shared by every read path. Arrays go
 * through sql.param: drizzle would otherwise expand them into a parenthesised list.
 */
import { sql } from 'drizzle-orm';
import { isSensitivity, SENSITIVITIES, sensitivityRank, type TrustContext } from '../domain/records';

/**
 * Sensitivity up to one level above the caller's maximum (fetched to be redacted) and scope. The
 * rank bound uses the index; the level list keeps a row whose stored level is off the scale (or
 * whose rank disagrees with it) out, and a clearance off the scale sees nothing.
 */
export function trustWhere(trust: TrustContext) {
  if (!isSensitivity(trust.max_sensitivity)) return sql`false`;
  const bound = sensitivityRank(trust.max_sensitivity) + 1;
  const levels = SENSITIVITIES.slice(0, bound + 1);
  return sql`r.sensitivity_rank <= ${bound} AND r.sensitivity = ANY(${sql.param([...levels])}::text[])
    ${trust.scopes ? sql`AND (r.scope = '' OR r.scope = ANY(${sql.param(trust.scopes)}::text[]))` : sql``}`;
}
