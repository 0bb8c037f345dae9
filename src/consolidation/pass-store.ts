/**
 * The record of finished consolidation passes (one row per workflow run, for stats and /metrics).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { ConsolidationResult } from './result';

export interface PassRecord extends ConsolidationResult {
  workflow_id: string;
  run_id: string;
}

/** Creates the pass store over a database. */
export function createPassStore(db: Db) {
  return {
    /** Records a pass once: a retried activity finds its row (unique run_id) and adds nothing. */
    async record(pass: PassRecord): Promise<void> {
      await db.execute(sql`
        INSERT INTO consolidation_passes
          (workflow_id, run_id, scanned, eligible, created, skipped, competences_created, competences_reinforced)
        VALUES (${pass.workflow_id}, ${pass.run_id}, ${pass.scanned}, ${pass.eligible}, ${pass.created}, ${pass.skipped},
                ${pass.competences_created}, ${pass.competences_reinforced})
        ON CONFLICT (run_id) DO NOTHING`);
    },
  };
}
