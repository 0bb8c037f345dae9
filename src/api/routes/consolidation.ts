import { z } from 'zod';
import { consolidationResultSchema } from '../../consolidation/result';
import { runConsolidationOnce } from '../../consolidation/run-once';
import { DomainError } from '../../domain/errors';
import type { Services } from '../../services';
import { defineRoute } from '../route';

export const consolidationRunBodySchema = z.strictObject({
  page_size: z.number().int().min(1).max(5000).optional(),
});
export const consolidationRunResponseSchema = consolidationResultSchema.extend({ workflow_id: z.string() });

/** POST /v1/consolidation/run: one consolidation pass now, answered with its counts; callers with an API key only. */
export function consolidationRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/consolidation/run',
      summary: 'Run one consolidation pass (episodes → plan graphs and competences) and report its counts',
      tags: ['consolidation'],
      body: consolidationRunBodySchema,
      response: consolidationRunResponseSchema,
      handler: ({ body, principal }) => {
        // A pass reads every episode, whatever the caller may see, and writes plans: not for anonymous callers.
        if (!principal.authenticated) {
          throw new DomainError('unauthenticated', 'running a consolidation pass needs an API key (Authorization: Bearer <key>)', { field: 'headers.authorization' });
        }
        return runConsolidationOnce(services.temporal.client, services.config, { pageSize: body.page_size });
      },
    }),
  ];
}
