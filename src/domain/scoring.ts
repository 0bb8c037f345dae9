/**
 * Retrieval scoring and the membrane selection confidence (the seed formula, SELECTION_MODE=
 * membrane): pure functions of a record, an optional cosine similarity and the current time, so
 * every figure can be checked by hand. The calibrated mode's match and confidence: selection.ts.
 */
import type { ActionConflict } from './action-words';
import type { ValueConflict } from './fixed-values';
import type { Payload } from './records';
import { calibratedScore } from './selection';

/** Half-life of recency, in days: a record last reinforced 30 days ago scores 0.5. */
export const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * The signals behind a score: applicability (membrane: from the cosine; calibrated: the fused
 * match), success rate and recency, plus the raw evidence — cosine and, in calibrated mode,
 * the lexical match of the plan document.
 */
export interface ScoreSignals {
  applicability: number;
  success_rate: number;
  recency: number;
  cosine?: number;
  lexical?: number;
  /** Word alignment of the task against the plan document (calibrated mode, word-vector embedders). */
  alignment?: number;
  /** Match of the task against the plan's learned aliases as whole phrasings (calibrated mode, plans with aliases). */
  alias?: number;
}

/** Default auto-run threshold of the membrane formula. */
export const MEMBRANE_THRESHOLD = 0.7;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Applicability: (cos+1)/2 clamped to [0,1] when both embeddings exist, else the record's confidence. */
export function applicability(confidence: number, cosine?: number): number {
  return cosine === undefined ? confidence : clamp01((cosine + 1) / 2);
}

/** Success rate: 1 − failure_rate of an executed plan, success share of a used competence, else 0.5. */
export function successRate(payload: Payload): number {
  if (payload.kind === 'plan_graph') {
    return payload.metrics.execution_count > 0 ? 1 - payload.metrics.failure_rate : 0.5;
  }
  if (payload.kind === 'competence') {
    const { success_count, failure_count } = payload.performance;
    const total = success_count + failure_count;
    return total > 0 ? success_count / total : 0.5;
  }
  return 0.5;
}

/** Recency: 0.5^(days since last reinforcement / 30); 1.0 when the timestamp lies in the future. */
export function recency(lastReinforcedAt: string | Date, now: Date): number {
  const ageMs = now.getTime() - new Date(lastReinforcedAt).getTime();
  if (ageMs <= 0) return 1;
  return 0.5 ** (ageMs / DAY_MS / RECENCY_HALF_LIFE_DAYS);
}

/** What scoring needs of a record (full or redacted records both carry the envelope fields). */
export interface Scorable {
  confidence: number;
  last_reinforced_at: string;
  payload: Payload;
}

/** Score = mean of applicability, success rate and recency, with the signals behind it. */
export function scoreRecord(record: Scorable, now: Date, cosine?: number): { score: number; signals: ScoreSignals } {
  const signals: ScoreSignals = {
    applicability: applicability(record.confidence, cosine),
    success_rate: successRate(record.payload),
    recency: recency(record.last_reinforced_at, now),
    ...(cosine === undefined ? {} : { cosine }),
  };
  return { score: (signals.applicability + signals.success_rate + signals.recency) / 3, signals };
}

/** Calibrated score: the fused match, success rate and recency only breaking near-ties (see selection.ts). */
export function calibratedScoreRecord(
  record: Scorable,
  now: Date,
  evidence: { match: number; cosine?: number; lexical?: number; alignment?: number; alias?: number },
): { score: number; signals: ScoreSignals } {
  const signals: ScoreSignals = {
    applicability: evidence.match,
    success_rate: successRate(record.payload),
    recency: recency(record.last_reinforced_at, now),
    ...(evidence.cosine === undefined ? {} : { cosine: evidence.cosine }),
    ...(evidence.lexical === undefined ? {} : { lexical: evidence.lexical }),
    ...(evidence.alignment === undefined ? {} : { alignment: evidence.alignment }),
    ...(evidence.alias === undefined ? {} : { alias: evidence.alias }),
  };
  return { score: calibratedScore(signals.applicability, signals.success_rate, signals.recency), signals };
}

/**
 * Selection confidence over the scores of the selectable candidates: none → 0, one →
 * min(score, 1), more → (best − second) / best, 0 when best ≤ 0.
 */
export function selectionConfidence(scores: readonly number[]): number {
  if (scores.length === 0) return 0;
  const sorted = [...scores].sort((a, b) => b - a);
  const best = sorted[0]!;
  if (sorted.length === 1) return Math.min(best, 1);
  if (best <= 0) return 0;
  return (best - sorted[1]!) / best;
}

/** The selection verdict: confidence and whether it falls short of the threshold. */
export interface Selection {
  confidence: number;
  needs_more: boolean;
  threshold: number;
  /** Set when the top plan does another action than the task's verb asks for: it never auto-runs. */
  action_conflict?: ActionConflict;
  /** Set when the task names values the top plan keeps fixed (and takes no input for): it never auto-runs. */
  value_conflict?: ValueConflict[];
}

/** Selection over the given scores against a threshold. */
export function select(scores: readonly number[], threshold: number): Selection {
  const confidence = selectionConfidence(scores);
  return { confidence, needs_more: confidence < threshold, threshold };
}
