/** GET /v1/runs, GET /v1/runs/:workflow_id(/nodes(/:node_id)) and POST /v1/runs/:workflow_id/cancel: list, watch and stop plan runs. */
import { z } from 'zod';
import { temporalIdSchema } from '../../domain/run-schemas';
import { createIntentComponents } from '../../intents/wiring';
import { cancelResponseSchema, runViewSchema } from '../../intents/schemas';
import type { Services } from '../../services';
import { effectiveTrust } from '../../domain/principal';
import { createRunLister, listRunsQuerySchema, runListSchema } from '../../store/run-list';
import { createRunNodeReader, runNodeListQuerySchema, runNodeListSchema, runNodeSchema } from '../../intents/run-node';
import { defineRoute } from '../route';

export { cancelResponseSchema, runViewSchema };
export type { CancelResponse, RunView } from '../../intents/schemas';

export const runParamsSchema = z.object({ workflow_id: temporalIdSchema });

/** The run routes over the given services. */
export function runRoutes(services: Services) {
  const { viewer } = createIntentComponents(services);
  const lister = createRunLister(services.db);
  const nodes = createRunNodeReader({ client: services.temporal.client, viewer, records: services.records });
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/runs',
      summary: 'Plan runs from Postgres, newest first, filtered by plan, state and start time (runs of plans the caller may run)',
      tags: ['runs'],
      query: listRunsQuerySchema,
      response: runListSchema,
      handler: ({ query, principal }) => lister.list(query, effectiveTrust(principal)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/runs/:workflow_id',
      summary: "A run's state, live per-node status while running, result when done, and its plan_runs row",
      tags: ['runs'],
      params: runParamsSchema,
      response: runViewSchema,
      handler: ({ params, principal }) => viewer.view(params.workflow_id, effectiveTrust(principal)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/runs/:workflow_id/nodes',
      summary: "Every node of a run (id, op, state) in topological order, a page at a time; also for partitioned runs, whose status details one partition",
      tags: ['runs'],
      params: runParamsSchema,
      query: runNodeListQuerySchema,
      response: runNodeListSchema,
      handler: ({ params, query, principal }) => nodes.list(params.workflow_id, query, effectiveTrust(principal)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/runs/:workflow_id/nodes/:node_id',
      summary: "One node of a run: its params as declared in the run's plan and as resolved when it started",
      tags: ['runs'],
      params: runParamsSchema.extend({ node_id: temporalIdSchema }),
      response: runNodeSchema,
      handler: ({ params, principal }) => nodes.node(params.workflow_id, params.node_id, effectiveTrust(principal)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/runs/:workflow_id/cancel',
      summary: 'Request cancellation of a running plan run (409 when it has already finished)',
      tags: ['runs'],
      params: runParamsSchema,
      status: 202,
      response: cancelResponseSchema,
      handler: ({ params, principal }) => viewer.cancel(params.workflow_id, effectiveTrust(principal)),
    }),
  ];
}
