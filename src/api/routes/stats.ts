/** GET /v1/stats: plan reuse frequency and counts of records, runs and consolidation passes. */
import type { Services } from '../../services';
import { createStatsStore, statsSchema } from '../../store/stats';
import { defineRoute } from '../route';

export { statsSchema };
export type { Stats } from '../../store/stats';

/** The stats route over the given services. */
export function statsRoutes(services: Services) {
  const stats = createStatsStore(services.db);
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/stats',
      summary: 'plan_reuse_frequency (mean execution_count of active plans) and counts by type and status',
      tags: ['system'],
      response: statsSchema,
      handler: () => stats.snapshot(),
    }),
  ];
}
