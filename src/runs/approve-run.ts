/**
 * Deciding an approval wait of a running run (docs/api.md#approvals): the caller must be allowed
 * to run the plan (else the same 404 as for a run it cannot see); the decision is the executor's
 * `approval` Update, whose validator refuses a node that is not a waiting approval.
 */
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { APPROVAL_DECISIONS, APPROVAL_REFUSALS, approvalUpdate, type ApprovalDecision } from '../domain/approvals';
import { approvalDecisionSchema, approvalWaitSchema } from '../domain/approval-schemas';
import { DomainError } from '../domain/errors';
import { effectiveTrust, type Principal } from '../domain/principal';
import { endedMeanwhile, runViewState, type RunViewer } from '../intents/run-view';

export const approvalBodySchema = z
  .object({
    decision: z.enum(APPROVAL_DECISIONS),
    comment: z.string().max(2000).optional(),
  })
  .strict();
export type ApprovalBody = z.infer<typeof approvalBodySchema>;
export { approvalDecisionSchema };

/** A run's open waits and the decisions made so far. */
export const approvalListSchema = z.object({
  workflow_id: z.string(),
  waiting_for: z.array(approvalWaitSchema),
  approvals: z.array(approvalDecisionSchema),
});
export type ApprovalList = z.infer<typeof approvalListSchema>;

/** The domain error for each refusal type of the update's validator. */
const REFUSAL_CODES: Record<string, 'not_found' | 'bad_request' | 'conflict'> = {
  [APPROVAL_REFUSALS.unknownNode]: 'not_found',
  [APPROVAL_REFUSALS.notApproval]: 'bad_request',
  [APPROVAL_REFUSALS.notWaiting]: 'conflict',
  invalid_params: 'bad_request',
};

export function createApprover(deps: { client: Client; viewer: Pick<RunViewer, 'describe' | 'view'> }) {
  /** The running run the caller may run; 404 when it may not, 409 when it is closed. */
  async function runningRun(workflowId: string, principal: Principal) {
    const { description } = await deps.viewer.describe(workflowId, effectiveTrust(principal));
    const state = runViewState(description);
    if (state !== 'running') throw new DomainError('conflict', `run ${workflowId} has ended (${state}): nothing waits for approval`, { workflow_id: workflowId, state });
    return deps.client.workflow.getHandle(workflowId, description.runId);
  }

  return {
    /** Approves or rejects one wait (an approval node, or `$run` for the run gate) as `principal`. */
    async decide(workflowId: string, nodeId: string, body: ApprovalBody, principal: Principal): Promise<ApprovalDecision> {
      const handle = await runningRun(workflowId, principal);
      try {
        return await handle.executeUpdate(approvalUpdate, { args: [{ node_id: nodeId, decision: body.decision, comment: body.comment, by: principal.name }] });
      } catch (err) {
        const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
        const code = cause instanceof ApplicationFailure ? REFUSAL_CODES[cause.type ?? ''] : undefined;
        if (code) throw new DomainError(code, cause!.message, { workflow_id: workflowId, node_id: nodeId });
        throw endedMeanwhile(err, workflowId, 'the decision reached it');
      }
    },

    /** What a run waits for, and what was decided (a closed run waits for nothing: its result's decisions). */
    async list(workflowId: string, principal: Principal): Promise<ApprovalList> {
      const view = await deps.viewer.view(workflowId, effectiveTrust(principal));
      if (view.state !== 'running') return { workflow_id: workflowId, waiting_for: [], approvals: view.result?.approvals ?? [] };
      // The view's live status is the run's status query, answered by a worker.
      if (!view.status) throw new DomainError('unavailable', `run ${workflowId}: ${view.status_error ?? 'no live status'}`, { workflow_id: workflowId });
      return { workflow_id: workflowId, waiting_for: view.status.waiting_for ?? [], approvals: view.status.approvals ?? [] };
    },
  };
}

export type Approver = ReturnType<typeof createApprover>;
