import { sql } from 'drizzle-orm';
import type { Services } from '../../services';
import { defineRoute } from '../route';
import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  temporal: z.object({ ok: z.boolean(), address: z.string(), error: z.string().optional() }),
  database: z.object({ ok: z.boolean(), error: z.string().optional() }),
});

/** GET /healthz: Temporal and database reachability. */
export function healthRoutes(services: Services) {
  return [
    defineRoute({
      method: 'GET',
      url: '/healthz',
      summary: 'Liveness of the API and its Temporal and database connections',
      tags: ['system'],
      response: healthSchema,
      handler: async ({ reply }) => {
        const [temporal, database] = await Promise.all([
          services.temporal.connection.workflowService.getSystemInfo({}).then(
            () => ({ ok: true }),
            (err: Error) => ({ ok: false, error: err.message }),
          ),
          services.db.execute(sql`SELECT 1`).then(
            () => ({ ok: true }),
            (err: Error) => ({ ok: false, error: err.message }),
          ),
        ]);
        const ok = temporal.ok && database.ok;
        if (!ok) reply.status(503);
        return { status: ok ? 'ok' : 'degraded', temporal: { ...temporal, address: services.config.TEMPORAL_ADDRESS }, database };
      },
    }),
  ];
}
