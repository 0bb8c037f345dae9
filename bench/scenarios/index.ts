/** Every scenario, in the order `npm run bench` runs them. */
import type { Scenario } from '../lib/scenario';
import { eagerVsLevels } from './eager-vs-levels';
import { interpretationOverhead } from './interpretation-overhead';
import { parallelEfficiency } from './parallel-efficiency';
import { throughput } from './throughput';

export const SCENARIOS: readonly Scenario[] = [interpretationOverhead, parallelEfficiency, eagerVsLevels, throughput];
