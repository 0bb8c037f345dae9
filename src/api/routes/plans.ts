/**
 * Plan routes (docs/api.md): author, list, show, diagram, reinforce and revise plan graphs. Reads
 * and writes run under the caller's principal trust: invisible plans are 404, plans one level
 * above the clearance are shown redacted and cannot be written (403).
 */
import { z } from 'zod';
import { planToMermaid } from '../../domain/plan-diagram';
import { aRecordType, memoryRecordSchema, redactedRecordSchema, typeEcho, withoutType } from '../../domain/records';
import { DomainError } from '../../domain/errors';
import { listPlansQuerySchema, type VisiblePlan } from '../../retrieval/plan-reader';
import { reinforceInputSchema } from '../../retrieval/reinforce';
import { authorPlanSchema, contestSchema, forkSchema, mergeSchema, retractSchema, supersedeSchema, writeResultSchema } from '../../domain/revision-requests';
import type { Services } from '../../services';
import { effectiveTrust, type Principal } from '../../domain/principal';
import { defineRoute } from '../route';
import { visibleSuccessor } from '../../runs/plan-successor';

export const idParamsSchema = z.object({ id: z.string() });
export const visiblePlanSchema = z.object({ record: z.union([memoryRecordSchema, redactedRecordSchema]), redacted: z.boolean() });
/** One plan: with, for a superseded or merged one, the active plan that replaced it (when the caller may see it). */
export const planViewSchema = visiblePlanSchema.extend({ superseded_by: z.string().optional() });
export const planPageSchema = z.object({ items: z.array(visiblePlanSchema), next_cursor: z.string().nullable() });
export const diagramQuerySchema = z.object({ format: z.enum(['text', 'json']).default('text') }).strict();
export const reinforceResultSchema = z.object({
  id: z.uuid(),
  salience: z.number(),
  last_reinforced_at: z.string(),
  revision: z.number().int(),
  learned_alias: z.string().optional(),
});

const writer = (principal: Principal) => ({ actor: principal.name, trust: effectiveTrust(principal) });

/** Plans only: an episode or competence is named as such (422), not hidden. */
function requirePlan(visible: VisiblePlan): VisiblePlan {
  if (visible.record.type !== 'plan_graph') {
    throw new DomainError('not_a_plan', `record ${visible.record.id} is ${aRecordType(visible.record.type)}, not a plan graph`, { id: visible.record.id, type: visible.record.type });
  }
  return visible;
}

/** The plan routes over the given services. */
export function planRoutes(services: Services) {
  const { plans, revisions, reinforcer } = services;
  const revise = (action: 'supersede' | 'fork' | 'contest' | 'retract', body: z.ZodType, status: number, summary: string) =>
    defineRoute({
      method: 'POST',
      url: `/v1/plans/:id/${action}`,
      summary,
      tags: ['plans'],
      params: idParamsSchema,
      body,
      status,
      response: writeResultSchema,
      // The store re-parses the body with the same schema, so the cast only forwards it.
      handler: ({ params, body: input, principal }) => revisions[action](params.id, input as never, writer(principal)),
    });

  return [
    defineRoute({
      method: 'POST',
      url: '/v1/plans',
      summary: 'Author a plan graph by hand (validated: 422 lists every issue)',
      tags: ['plans'],
      body: authorPlanSchema.extend(typeEcho('plan_graph')),
      status: 201,
      response: writeResultSchema,
      handler: ({ body, principal }) => revisions.create(withoutType(body), writer(principal)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/plans',
      summary: 'List plans, newest first, filtered by intent and status (cursor-paginated)',
      tags: ['plans'],
      query: listPlansQuerySchema,
      response: planPageSchema,
      handler: ({ query, principal }) => plans.list(query, effectiveTrust(principal)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/plans/:id',
      summary: 'One plan with its live metrics and revision (redacted one level above the caller’s clearance)',
      tags: ['plans'],
      params: idParamsSchema,
      response: planViewSchema,
      handler: async ({ params, principal }) => {
        const trust = effectiveTrust(principal);
        const visible = requirePlan(await plans.get(params.id, trust));
        const successor = visible.redacted ? undefined : await visibleSuccessor(services.records, visible.record, trust);
        return successor ? { ...visible, superseded_by: successor } : visible;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/plans/:id/diagram',
      summary: 'The plan as a Mermaid flowchart (text/plain, or {mermaid} with ?format=json)',
      tags: ['plans'],
      params: idParamsSchema,
      query: diagramQuerySchema,
      response: z.union([z.object({ mermaid: z.string() }), z.string()]),
      handler: async ({ params, query, principal, reply }) => {
        const visible = requirePlan(await plans.get(params.id, effectiveTrust(principal)));
        if (visible.redacted || visible.record.payload.kind !== 'plan_graph') {
          throw new DomainError('forbidden', `plan ${params.id} is above this caller's clearance`, { id: params.id });
        }
        const mermaid = planToMermaid(visible.record.payload);
        if (query.format === 'json') return { mermaid };
        void reply.type('text/plain; charset=utf-8');
        return mermaid;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/plans/:id/reinforce',
      summary: 'Reinforce a plan: recent again, salience + gain (capped at 1), audited',
      tags: ['plans'],
      params: idParamsSchema,
      body: reinforceInputSchema,
      response: reinforceResultSchema,
      handler: async ({ params, body, principal }) => {
        const visible = requirePlan(await plans.get(params.id, effectiveTrust(principal)));
        if (visible.redacted) throw new DomainError('forbidden', `plan ${params.id} is above this caller's clearance`, { id: params.id });
        return reinforcer.reinforce(params.id, principal.name, body);
      },
    }),
    revise('supersede', supersedeSchema, 201, 'Replace a plan by a new revision (409 conflict names the current revision)'),
    revise('fork', forkSchema, 201, 'Fork a plan into a new, independent plan'),
    revise('contest', contestSchema, 200, 'Contest a plan, with a reason and optional evidence record'),
    revise('retract', retractSchema, 200, 'Retract a plan: never selected or run again'),
    defineRoute({
      method: 'POST',
      url: '/v1/plans/merge',
      summary: 'Merge N plans into a new one; the sources become merged',
      tags: ['plans'],
      body: mergeSchema,
      status: 201,
      response: writeResultSchema,
      handler: ({ body, principal }) => revisions.merge(body, writer(principal)),
    }),
  ];
}
