/**
 * Fitting the selection confidence: logistic regression of "the top candidate is the labelled
 * plan" on the top match and its margin, over every query of the labelled set at once (Newton's
 * method with a little L2 so separable data still gives finite coefficients).
 */
import { CALIBRATED_THRESHOLD, type Calibration } from '../../src/domain/selection';
import type { QueryOutcome } from './evaluate';

const L2 = 0.01;
const ITERATIONS = 50;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Coefficients maximising the penalised likelihood of the outcomes. */
export function fitCalibration(outcomes: readonly QueryOutcome[]): Calibration {
  const rows = outcomes.map((o) => ({ x: [1, o.top, o.margin], y: o.rank === 1 ? 1 : 0 }));
  let w = [0, 0, 0];
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const gradient = [0, 0, 0];
    const hessian = [
      [L2, 0, 0],
      [0, L2, 0],
      [0, 0, L2],
    ];
    for (const { x, y } of rows) {
      const p = sigmoid(w[0]! * x[0]! + w[1]! * x[1]! + w[2]! * x[2]!);
      for (let i = 0; i < 3; i++) {
        gradient[i]! += (p - y) * x[i]!;
        for (let j = 0; j < 3; j++) hessian[i]![j]! += p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 0; i < 3; i++) gradient[i]! += L2 * w[i]!;
    const step = solve3(hessian, gradient);
    w = w.map((v, i) => v - step[i]!);
    if (Math.hypot(...step) < 1e-9) break;
  }
  return { intercept: w[0]!, match: w[1]!, margin: w[2]! };
}

/** The confidence a calibration gives one outcome. */
export function confidenceOf(calibration: Calibration, outcome: Pick<QueryOutcome, 'top' | 'margin'>): number {
  return sigmoid(calibration.intercept + calibration.match * outcome.top + calibration.margin * outcome.margin);
}

/** The outcomes re-decided under a calibration and threshold (for selectors without shipped coefficients). */
export function recalibrated(outcomes: readonly QueryOutcome[], calibration: Calibration, threshold = CALIBRATED_THRESHOLD): QueryOutcome[] {
  return outcomes.map((o) => {
    const confidence = o.top > 0 ? confidenceOf(calibration, o) : 0;
    return { ...o, confidence, autoRun: confidence >= threshold && !o.withheld };
  });
}

/** Solves a 3×3 linear system by Cramer's rule. */
function solve3(a: number[][], b: number[]): number[] {
  const det = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det(a);
  return [0, 1, 2].map((col) => det(a.map((row, i) => row.map((v, j) => (j === col ? b[i]! : v)))) / d);
}
