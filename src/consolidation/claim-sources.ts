/**
 * Claiming episodes for a consolidated record, shared by the plan and competence consolidators.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * The CTEs `claimed` and `related` of a consolidation statement: each (episode_id, record_id)
 * row of `source` is claimed for `kind` at most once (the primary key of consolidated_sources
 * decides between concurrent passes) and linked `derived_from`. `claimed` holds only the rows
 * this statement won. Rows are taken in episode order so concurrent passes lock alike.
 */
export function claimSources(kind: 'plan' | 'competence', source: SQL): SQL {
  return sql`claimed AS (
    INSERT INTO consolidated_sources (episode_id, kind, record_id)
    SELECT episode_id, ${kind}, record_id FROM ${source} ORDER BY episode_id
    ON CONFLICT (episode_id, kind) DO NOTHING
    RETURNING episode_id, record_id
  ), related AS (
    INSERT INTO memory_relations (source_id, predicate, target_id, weight)
    SELECT record_id, 'derived_from', episode_id, 1 FROM claimed
    ON CONFLICT DO NOTHING
  )`;
}
