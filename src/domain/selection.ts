/**
 * Calibrated selection: how well a plan matches a task (lexical and dense evidence fused into
 * [0, 1]), a ranking score where success and recency only break near-ties, and the selection
 * confidence as an estimate of P(the top candidate is the plan meant), a logistic function of
 * the top match and its margin over the runner-up, fitted on the labelled set in bench/selection
 * (`npx tsx bench/selection/fit.ts`, whole set, never single queries).
 */
import type { Selection } from './scoring';

/**
 * Longest task description an agent may send to retrieval or as an intent: longer text is a
 * document, not a task, and past ~1 MB its words overflow Postgres's tsvector (a 500).
 */
export const MAX_TASK_DESCRIPTOR_CHARS = 4_000;

export const SELECTION_MODES = ['calibrated', 'membrane'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** Which evidence the match uses: both fused (the default), or one alone (for comparison). */
export const MATCH_KINDS = ['hybrid', 'lexical', 'dense'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/**
 * Weights of the fused match, by the dense evidence available: the word alignment (embedders
 * made of word vectors) or the sentence cosine (others). Chosen over reciprocal rank fusion and
 * by a weight sweep on the labelled set (BENCHMARKS.md).
 */
export const FUSION_WEIGHTS = {
  alignment: { lexical: 0.6, dense: 0.4 },
  cosine: { lexical: 0.8, dense: 0.2 },
} as const;

/** The dense evidence of a candidate: word alignment and/or sentence cosine (either may be missing). */
export interface DenseEvidence {
  alignment?: number;
  cosine?: number;
}

/**
 * Most that success rate and recency together can add to a score. A candidate whose match is
 * better by more than this is never overturned by a runner-up's history.
 */
export const HISTORY_TIEBREAK = 0.05;

/** Fitted coefficients of the confidence: σ(intercept + match·top + margin·(top − runner-up)). */
export const CALIBRATION = { intercept: 0.39, match: 0.16, margin: 11.77 } as const;
export type Calibration = { intercept: number; match: number; margin: number };

/** Default auto-run threshold for calibrated confidences: the labelled set's auto-runs are ≥ 0.98 precise above it. */
export const CALIBRATED_THRESHOLD = 0.87;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * The match in [0, 1] from the lexical match and the dense evidence — the word alignment where
 * there is one, else the cosine; missing evidence counts as 0.
 */
export function fusedMatch(kind: MatchKind, lexical: number | undefined, dense: DenseEvidence): number {
  const weights = dense.alignment === undefined ? FUSION_WEIGHTS.cosine : FUSION_WEIGHTS.alignment;
  const semantic = clamp01(dense.alignment ?? dense.cosine ?? 0);
  const lex = clamp01(lexical ?? 0);
  if (kind === 'lexical') return lex;
  if (kind === 'dense') return semantic;
  return weights.lexical * lex + weights.dense * semantic;
}

/** Reciprocal rank fusion constant (the customary 60). */
export const RRF_K = 60;

/** Reciprocal rank fusion of a lexical and a dense rank (1-based), scaled so rank 1 in both is 1. */
export function reciprocalRankFusion(lexicalRank: number, denseRank: number): number {
  return (1 / (RRF_K + lexicalRank) + 1 / (RRF_K + denseRank)) / (2 / (RRF_K + 1));
}

/** Ranking score: the match, plus at most HISTORY_TIEBREAK for a good success rate and recent use. */
export function calibratedScore(match: number, successRate: number, recency: number): number {
  return match + (HISTORY_TIEBREAK * (successRate + recency)) / 2;
}

/**
 * The least a runner-up counts as: what the best unrelated plan scores for a task. A caller who
 * sees few plans (a new deployment, a narrow scope) has no runner-up, or only weak unrelated ones,
 * and against those almost any top plan stands out. Measured on the labelled set (the `selection`
 * scenario's "visible plans" figures): against no floor a lone unrelated plan auto-ran for about
 * 81% of tasks; with the floor for a missing runner-up only, the better of two unrelated plans
 * for 9.8%; with this floor for every runner-up (and the coefficients refitted), 0.9% and 2.2%.
 */
export const RUNNER_UP_FLOOR = 0.3;

/** The features the confidence is a function of, from the selectable candidates best first. */
export function confidenceFeatures(ranked: ReadonlyArray<{ match: number; score: number }>): { top: number; margin: number } | undefined {
  const [best, second] = ranked;
  if (!best) return undefined;
  return { top: best.match, margin: best.score - Math.max(second?.score ?? RUNNER_UP_FLOOR, RUNNER_UP_FLOOR) };
}

/** P(top candidate is right) under a calibration; 0 without candidates. */
export function calibratedConfidence(
  ranked: ReadonlyArray<{ match: number; score: number }>,
  calibration: Calibration = CALIBRATION,
): number {
  const features = confidenceFeatures(ranked);
  if (!features) return 0;
  const z = calibration.intercept + calibration.match * features.top + calibration.margin * features.margin;
  return 1 / (1 + Math.exp(-z));
}

/** The calibrated verdict over ranked selectable candidates against a threshold. */
export function calibratedSelect(
  ranked: ReadonlyArray<{ match: number; score: number }>,
  threshold: number,
  calibration: Calibration = CALIBRATION,
): Selection {
  const confidence = calibratedConfidence(ranked, calibration);
  return { confidence, needs_more: confidence < threshold, threshold };
}
