/**
 * The trust filter as a SQL condition on `memory_records r`, shared by every read path. Arrays go
 * through sql.param: drizzle would otherwise expand them into a parenthesised list.
 */
import { sql } from 'drizzle-orm';
import { sensitivityRank, type TrustContext } from '../domain/records';

/** Sensitivity up to one level above the caller's maximum (fetched to be redacted) and scope. */
export function trustWhere(trust: TrustContext) {
  return sql`r.sensitivity_rank <= ${sensitivityRank(trust.max_sensitivity) + 1}
    ${trust.scopes ? sql`AND (r.scope = '' OR r.scope = ANY(${sql.param(trust.scopes)}::text[]))` : sql``}`;
}
