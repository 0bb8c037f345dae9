/** Every scenario, in the order `npm run bench` runs them. */
import type { Scenario } from '../lib/scenario';
import { consoleLayout } from './console-layout';
import { consolidation } from './consolidation';
import { eagerVsLevels } from './eager-vs-levels';
import { horizontalWorkers } from './horizontal-workers';
import { mapVsFan } from './map-vs-fan';
import { interpretationOverhead } from './interpretation-overhead';
import { learnedJobs } from './learned-jobs';
import { learnedWording } from './learned-wording';
import { metricsContention } from './metrics-contention';
import { parallelEfficiency } from './parallel-efficiency';
import { partitionedSize } from './partitioned-size';
import { planSize } from './plan-size';
import { retrieval } from './retrieval';
import { selection } from './selection';
import { throughput } from './throughput';

export const SCENARIOS: readonly Scenario[] = [
  interpretationOverhead,
  parallelEfficiency,
  eagerVsLevels,
  throughput,
  horizontalWorkers,
  consolidation,
  retrieval,
  selection,
  learnedWording,
  learnedJobs,
  metricsContention,
  planSize,
  mapVsFan,
  partitionedSize,
  consoleLayout,
];
