/** POST /v1/intents: pick a stored plan for a task under the caller's trust and run it. */
import { createIntentComponents } from '../../intents/wiring';
import { intentRequestSchema, intentResponseSchema } from '../../intents/schemas';
import type { Services } from '../../services';
import { withIdempotencyHeader } from '../idempotency-header';
import { defineRoute } from '../route';

export { intentRequestSchema, intentResponseSchema };
export type { IntentRequest, IntentResponse } from '../../intents/schemas';

/** The intent route over the given services. */
export function intentRoutes(services: Services) {
  const { intents } = createIntentComponents(services);
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/intents',
      summary: 'Run the best stored plan for a task (422 needs_more below the selection threshold unless plan_id is given)',
      tags: ['runs'],
      body: intentRequestSchema,
      status: 202,
      response: intentResponseSchema,
      handler: ({ body, principal, raw }) => intents.submit(principal, withIdempotencyHeader(body, raw)),
    }),
  ];
}
