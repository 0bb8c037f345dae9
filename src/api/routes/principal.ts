/** GET /v1/whoami: the principal the request's API key names (anonymous without one). */
import { z } from 'zod';
import { sensitivitySchema } from '../../domain/records';
import { defineRoute } from '../route';

export const whoamiSchema = z.object({
  name: z.string(),
  authenticated: z.boolean(),
  max_sensitivity: sensitivitySchema,
  /** Scopes the key may see; null = any. */
  scopes: z.array(z.string()).nullable(),
});

/** The principal route: lets a client (the web console) show and use the key's own trust. */
export function principalRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/whoami',
      summary: 'The caller’s principal: name, authenticated, clearance and scopes',
      tags: ['auth'],
      response: whoamiSchema,
      handler: async ({ principal }) => ({
        name: principal.name,
        authenticated: principal.authenticated,
        max_sensitivity: principal.max_sensitivity,
        scopes: principal.scopes ?? null,
      }),
    }),
  ];
}
