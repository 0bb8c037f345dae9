/**
 * `npx tsx bench/selection/fit.ts`: fits the calibrated confidence of the shipped selector on the
 * whole labelled set and prints the coefficients (for CALIBRATION in src/domain/selection.ts)
 * with the auto-run rate and precision each threshold would give.
 */
import { loadConfig } from '../../src/config';
import { CALIBRATED_THRESHOLD } from '../../src/domain/selection';
import { evaluateVariant, SELECTION_VARIANTS } from '../scenarios/selection';
import { fitCalibration, recalibrated } from './calibrate';
import { metricsOf } from './evaluate';

const shipped = SELECTION_VARIANTS.at(-1)!;
const { outcomes } = await evaluateVariant(loadConfig().DATABASE_URL, shipped);
const calibration = fitCalibration(outcomes);
const round = (v: number) => Math.round(v * 100) / 100;
console.log(`fitted on ${outcomes.length} queries of "${shipped.name}":`, JSON.stringify({ intercept: round(calibration.intercept), match: round(calibration.match), margin: round(calibration.margin) }));
for (const threshold of [0.5, 0.6, 0.7, 0.8, 0.85, 0.86, 0.87, 0.9, 0.95, CALIBRATED_THRESHOLD]) {
  const m = metricsOf(recalibrated(outcomes, calibration, threshold));
  console.log(`threshold ${threshold}: auto-run ${m.autoRunRate.toFixed(3)}, precision ${m.precision.toFixed(3)}, top-1 ${m.top1.toFixed(3)}`);
}
process.exit(0);
