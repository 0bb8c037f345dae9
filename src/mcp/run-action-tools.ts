/**
 * MCP tools that act on a run: list what it waits for, approve or reject a wait, and resume a
 * failed run. Same library calls and trust rules as the HTTP routes (src/api/routes/run-actions.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { temporalIdSchema } from '../domain/run-schemas';
import { APPROVAL_DECISIONS } from '../domain/approvals';
import type { Principal } from '../domain/principal';
import type { Approver } from '../runs/approve-run';
import type { Resumer } from '../runs/resume-run';
import type { PendingApprovalsReader } from '../runs/pending-approvals';
import { answer } from './tools';

export interface RunActionToolDeps {
  principal: Principal;
  approver: Approver;
  resumer: Resumer;
  pending: PendingApprovalsReader;
}

const workflowId = temporalIdSchema.describe('The run’s workflow id');

export function registerRunActionTools(server: McpServer, deps: RunActionToolDeps): void {
  const { principal } = deps;

  server.registerTool(
    'list_approvals',
    {
      title: 'List what waits for a person',
      description:
        'With workflow_id: the approval waits of that running run (approval nodes, and `$run` for a requires_approval gate) with their prompts, and the decisions made so far. ' +
        'Without: the running runs this caller may run that wait for an approval (the newest 50 running runs are inspected).',
      inputSchema: { workflow_id: workflowId.optional() },
    },
    ({ workflow_id }) => answer(() => (workflow_id ? deps.approver.list(workflow_id, principal) : deps.pending.list(principal))),
  );

  server.registerTool(
    'decide_approval',
    {
      title: 'Approve or reject a wait',
      description:
        'Approve or reject a waiting approval node of a running run (node_id `$run`: the run’s requires_approval gate). ' +
        'A rejection fails the node with approval_rejected. Only a caller who may run the plan may decide.',
      inputSchema: {
        workflow_id: workflowId,
        node_id: temporalIdSchema,
        decision: z.enum(APPROVAL_DECISIONS),
        comment: z.string().max(2000).optional(),
      },
    },
    ({ workflow_id, node_id, decision, comment }) => answer(() => deps.approver.decide(workflow_id, node_id, { decision, comment }, principal)),
  );

  server.registerTool(
    'resume_run',
    {
      title: 'Resume a failed run',
      description:
        'Start a new run of a failed or cancelled run’s plan revision and inputs that reuses the outputs of the nodes that succeeded ' +
        'and runs only the failed, cancelled and skipped ones and what depends on them.',
      inputSchema: { workflow_id: workflowId },
    },
    ({ workflow_id }) => answer(() => deps.resumer.resume(workflow_id, principal)),
  );
}
