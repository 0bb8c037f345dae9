/** POST /v1/retrieve: ranked records for a task under the caller's trust, with the selection verdict. */
import { z } from 'zod';
import { memoryRecordSchema, redactedRecordSchema } from '../../domain/records';
import { retrieveRequestSchema } from '../../retrieval/retrieve';
import type { Services } from '../../services';
import { effectiveTrust } from '../../domain/principal';
import { defineRoute } from '../route';
import { selectionSchema } from '../../intents/schemas';

export { retrieveRequestSchema };

export const scoredCandidateSchema = z.object({
  record: z.union([memoryRecordSchema, redactedRecordSchema]),
  redacted: z.boolean(),
  score: z.number(),
  /** applicability = the fused match (calibrated mode) or (cosine+1)/2 (membrane); cosine, lexical, alignment and alias are the raw evidence. */
  signals: z.object({
    applicability: z.number(),
    success_rate: z.number(),
    recency: z.number(),
    cosine: z.number().optional(),
    lexical: z.number().optional(),
    alignment: z.number().optional(),
    /** Match against the plan's learned aliases as whole phrasings; present for plans with aliases (calibrated mode). */
    alias: z.number().optional(),
  }),
});
export const retrieveResponseSchema = z.object({
  candidates: z.array(scoredCandidateSchema),
  selection: selectionSchema.required({ mode: true }),
});
export type RetrieveResponse = z.infer<typeof retrieveResponseSchema>;

/** The retrieval route over the given services. */
export function retrieveRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/retrieve',
      summary: 'Rank stored records for a task; the body trust may narrow the caller’s, never widen it (403)',
      tags: ['retrieval'],
      body: retrieveRequestSchema,
      response: retrieveResponseSchema,
      handler: ({ body, principal }) => services.retriever.retrieve({ ...body, trust: effectiveTrust(principal, body.trust) }),
    }),
  ];
}
