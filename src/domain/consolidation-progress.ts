/**
 * What a consolidation pass has done so far, answered by its workflow while it runs, so that
 * `plangraph consolidate --now` can show progress on a pass over many episodes.
 */
import { defineQuery } from '@temporalio/workflow';

export interface ConsolidationProgress {
  /** The pass's current step: episode pages, re-learning stored plans, competences, recording the pass. */
  step: 'episodes' | 'regeneralize' | 'competences' | 'recording';
  /** Counts so far over the whole pass (carried across continue-as-new). */
  scanned: number;
  eligible: number;
  created: number;
  linked: number;
  revised: number;
}

export const consolidationProgressQuery = defineQuery<ConsolidationProgress>('progress');
