/**
 * Acting on a run beyond cancelling it: deciding its approval waits (POST/GET
 * /v1/runs/:workflow_id/approvals…) and resuming it after a failure (POST /v1/runs/:workflow_id/resume).
 * Each needs a caller who may run the run's plan; anyone else gets the 404 of a run it cannot see.
 */
import { temporalIdSchema } from '../../domain/run-schemas';
import { createIntentComponents } from '../../intents/wiring';
import { approvalBodySchema, approvalDecisionSchema, approvalListSchema, createApprover } from '../../runs/approve-run';
import { createResumer, resumeResponseSchema } from '../../runs/resume-run';
import { createPendingApprovals, pendingApprovalsQuerySchema, pendingApprovalsSchema } from '../../runs/pending-approvals';
import { createRunLister } from '../../store/run-list';
import type { Services } from '../../services';
import { defineRoute } from '../route';
import { runParamsSchema } from './runs';

export { approvalBodySchema, approvalDecisionSchema, approvalListSchema, pendingApprovalsSchema, resumeResponseSchema };

/** The approval and resume routes over the given services. */
export function runActionRoutes(services: Services) {
  const { viewer } = createIntentComponents(services);
  const client = services.temporal.client;
  const approver = createApprover({ client, viewer });
  const resumer = createResumer({ client, config: services.config, records: services.records, viewer, knownOps: new Set(services.registry.keys()) });
  const pending = createPendingApprovals({ client, lister: createRunLister(services.db) });
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/approvals',
      summary: 'Runs waiting for a person: among the newest `limit` running runs the caller may run, those with open approval waits',
      tags: ['runs'],
      query: pendingApprovalsQuerySchema,
      response: pendingApprovalsSchema,
      handler: ({ query, principal }) => pending.list(principal, query.limit),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/runs/:workflow_id/approvals',
      summary: 'What a running run waits for (approval nodes and the requires_approval gate, `$run`) and the decisions made so far',
      tags: ['runs'],
      params: runParamsSchema,
      response: approvalListSchema,
      handler: ({ params, principal }) => approver.list(params.workflow_id, principal),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/runs/:workflow_id/approvals/:node_id',
      summary:
        'Approve or reject a waiting approval node (or `$run`, the requires_approval gate) as the caller; ' +
        '404 unknown node, 400 not an approval node, 409 not waiting or run closed',
      tags: ['runs'],
      params: runParamsSchema.extend({ node_id: temporalIdSchema }),
      body: approvalBodySchema,
      response: approvalDecisionSchema,
      handler: ({ params, body, principal }) => approver.decide(params.workflow_id, params.node_id, body, principal),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/runs/:workflow_id/resume',
      summary:
        'Start a new run of the same plan revision and inputs that reuses the nodes that succeeded and runs the failed, ' +
        'cancelled and skipped ones and what depends on them; 409 while running, after success, or when the plan is gone',
      tags: ['runs'],
      params: runParamsSchema,
      status: 201,
      response: resumeResponseSchema,
      handler: ({ params, principal }) => resumer.resume(params.workflow_id, principal),
    }),
  ];
}
