import { memoryRecordSchema, newEpisodeSchema } from '../../domain/records';
import type { Services } from '../../services';
import { defineRoute } from '../route';

/** POST /v1/episodes: stores one episode (immutable from then on). */
export function episodeRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/episodes',
      summary: 'Store one episode: what an agent did, as a timeline and a tool graph',
      tags: ['episodes'],
      body: newEpisodeSchema,
      status: 201,
      response: memoryRecordSchema,
      handler: ({ body, principal }) => services.episodes.create(body, { actor: principal.name, where: 'body' }),
    }),
  ];
}
