import { z } from 'zod';
import { consolidationResultSchema } from '../../consolidation/result';
import { runConsolidationOnce } from '../../consolidation/run-once';
import type { Services } from '../../services';
import { defineRoute } from '../route';

export const consolidationRunBodySchema = z.object({
  page_size: z.number().int().min(1).max(5000).optional(),
});
export const consolidationRunResponseSchema = consolidationResultSchema.extend({ workflow_id: z.string() });

/** POST /v1/consolidation/run: one consolidation pass now, answered with its counts. */
export function consolidationRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/consolidation/run',
      summary: 'Run one consolidation pass (episodes → plan graphs and competences) and report its counts',
      tags: ['consolidation'],
      body: consolidationRunBodySchema,
      response: consolidationRunResponseSchema,
      handler: ({ body }) => runConsolidationOnce(services.temporal.client, services.config, { pageSize: body.page_size }),
    }),
  ];
}
