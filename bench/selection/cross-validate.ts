/**
 * Cross-validated selection figures. The shipped fusion weight and calibration were chosen on the
 * whole labelled set, so the figures on that set are in-sample; a held-out set (other plans, other
 * phrasings) is what judges the selector. This estimates it: the plans are split into k folds;
 * for each fold the fusion weight and the calibration are chosen on the phrasings of the other
 * folds' plans only, and the fold's own phrasings are ranked and decided with them (every plan
 * stays stored, as it would be in use). The held-out outcomes of all folds are pooled.
 */
import { CALIBRATED_THRESHOLD, confidenceFeatures, HISTORY_TIEBREAK } from '../../src/domain/selection';
import { fitCalibration, recalibrated } from './calibrate';
import type { QueryOutcome } from './evaluate';
import type { LabelledQuery } from './labelled-set';

/** What retrieval gathered for one phrasing: every selectable candidate's evidence. */
export interface CandidateEvidence {
  /** Whether this candidate is the labelled plan. */
  labelled: boolean;
  lexical: number;
  alignment: number;
  /** What success rate and recency added to the score (at most HISTORY_TIEBREAK). */
  history: number;
  /** Whether its plan does another action than the phrasing's verb asks for (never auto-run; src/domain/action-words.ts). */
  conflicts?: boolean;
}

export interface QueryPool {
  query: LabelledQuery;
  candidates: CandidateEvidence[];
}

/** Lexical weights tried for the fused match `w · lexical + (1 − w) · alignment`. */
export const LEXICAL_WEIGHTS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8] as const;

/** The outcome of one phrasing when its candidates are fused with lexical weight `w` (ranks up to `limit`, as retrieval lists them). */
export function outcomeAt(pool: QueryPool, w: number, limit = 10): QueryOutcome {
  const ranked = pool.candidates
    .map((c) => ({ c, match: w * c.lexical + (1 - w) * c.alignment }))
    .map((x) => ({ ...x, score: x.match + Math.min(x.c.history, HISTORY_TIEBREAK) }))
    .sort((a, b) => b.score - a.score);
  const index = ranked.findIndex((x) => x.c.labelled);
  return {
    query: pool.query,
    rank: index >= 0 && index < limit ? index + 1 : 0,
    autoRun: false,
    withheld: ranked[0]?.c.conflicts ?? false,
    confidence: 0,
    ...(confidenceFeatures(ranked) ?? { top: 0, margin: 0 }),
  };
}

const top1 = (outcomes: readonly QueryOutcome[]) => outcomes.filter((o) => o.rank === 1).length;

/** The lexical weight with the most top-1 hits over some phrasings (ties: the first in LEXICAL_WEIGHTS order nearest the middle). */
export function bestLexicalWeight(pools: readonly QueryPool[]): number {
  let best: number = LEXICAL_WEIGHTS[0];
  let hits = -1;
  for (const w of LEXICAL_WEIGHTS) {
    const h = top1(pools.map((p) => outcomeAt(p, w)));
    if (h > hits || (h === hits && Math.abs(w - 0.55) < Math.abs(best - 0.55))) [best, hits] = [w, h];
  }
  return best;
}

/** Held-out outcomes of k-fold cross-validation by plan (plan index mod k), and the weights each fold chose. */
export function crossValidate(pools: readonly QueryPool[], k = 5, threshold = CALIBRATED_THRESHOLD): { outcomes: QueryOutcome[]; weights: number[] } {
  const outcomes: QueryOutcome[] = [];
  const weights: number[] = [];
  for (let fold = 0; fold < k; fold++) {
    const train = pools.filter((p) => p.query.plan % k !== fold);
    const test = pools.filter((p) => p.query.plan % k === fold);
    const w = bestLexicalWeight(train);
    weights.push(w);
    const calibration = fitCalibration(train.map((p) => outcomeAt(p, w)));
    outcomes.push(...recalibrated(test.map((p) => outcomeAt(p, w)), calibration, threshold));
  }
  return { outcomes, weights };
}
