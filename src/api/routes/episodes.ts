import { z } from 'zod';
import { aRecordType, memoryRecordSchema, newEpisodeSchema, redactedRecordSchema, typeEcho, withoutType } from '../../domain/records';
import { DomainError } from '../../domain/errors';
import { effectiveTrust } from '../../domain/principal';
import type { Services } from '../../services';
import { withIdempotencyHeader } from '../idempotency-header';
import { defineRoute } from '../route';

export const visibleEpisodeSchema = z.object({ record: z.union([memoryRecordSchema, redactedRecordSchema]), redacted: z.boolean() });

/** POST /v1/episodes stores one episode (immutable from then on); GET /v1/episodes/:id shows one. */
export function episodeRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/episodes',
      summary: 'Store one episode: what an agent did, as a timeline and a tool graph (201; 200 when its idempotency key already stored it)',
      tags: ['episodes'],
      body: newEpisodeSchema.extend(typeEcho('episodic')),
      status: 201,
      alsoStatus: { status: 200, description: 'its idempotency key already stored it: nothing was created (header `idempotent-replayed: true`)' },
      response: memoryRecordSchema,
      handler: async ({ body, principal, raw, reply }) => {
        const { record, existing } = await services.episodes.create(withIdempotencyHeader(withoutType(body), raw), { actor: principal.name, where: 'body', trust: effectiveTrust(principal) });
        // A retry: nothing was created, so 200 with the episode the first request stored.
        if (existing) return reply.status(200).header('idempotent-replayed', 'true').send(memoryRecordSchema.parse(record));
        return record;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/episodes/:id',
      summary: 'One episode (e.g. a source of a consolidated plan), under the caller’s trust like plans',
      tags: ['episodes'],
      params: z.object({ id: z.string() }),
      response: visibleEpisodeSchema,
      handler: async ({ params, principal }) => {
        const visible = await services.plans.get(params.id, effectiveTrust(principal));
        if (visible.record.type !== 'episodic') {
          throw new DomainError('not_an_episode', `record ${params.id} is ${aRecordType(visible.record.type)}, not an episode`, { id: params.id, type: visible.record.type });
        }
        return visible;
      },
    }),
  ];
}
