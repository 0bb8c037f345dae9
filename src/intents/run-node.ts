/**
 * One node of a run as the run pinned it: its params as declared in the run's plan snapshot and
 * as resolved against the run's inputs and its predecessors' outputs, exactly as the executor
 * resolved them when it started the node. The run's input is read from the first event of its
 * history, so later revisions of the stored plan never change the answer.
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { indexGraph } from '../domain/graph';
import { DomainError } from '../domain/errors';
import type { TrustContext } from '../domain/records';
import { resolveTemplates, type RefScope } from '../domain/refs';
import type { PlanRunInput } from '../domain/run-state';
import type { RunViewer } from './run-view';

export const runNodeSchema = z.object({
  workflow_id: z.string(),
  node_id: z.string(),
  op: z.string(),
  state: z.string(),
  /** As written in the plan the run is pinned to. */
  params: z.record(z.string(), z.unknown()),
  /** As the executor passed them to the op; null while the node has not started (or never will). */
  resolved_params: z.record(z.string(), z.unknown()).nullable(),
  guards: z.record(z.string(), z.unknown()),
  policy: z.record(z.string(), z.unknown()).nullable(),
});
export type RunNode = z.infer<typeof runNodeSchema>;

const STARTED = new Set(['running', 'succeeded', 'failed']);

/** Creates the node reader over the run viewer (which applies the trust rules) and Temporal. */
export function createRunNodeReader(deps: { client: Client; viewer: Pick<RunViewer, 'view'> }) {
  async function runInput(workflowId: string, runId: string): Promise<PlanRunInput> {
    const history = await deps.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    if (!payload) throw new DomainError('unavailable', `run ${workflowId} has no recorded input`, { workflow_id: workflowId });
    return deps.client.options.loadedDataConverter.payloadConverter.fromPayload<PlanRunInput>(payload);
  }

  return {
    async node(workflowId: string, nodeId: string, trust: TrustContext): Promise<RunNode> {
      const view = await deps.viewer.view(workflowId, trust);
      const { plan, inputs } = await runInput(workflowId, view.run_id);
      const node = plan.payload.nodes.find((n) => n.id === nodeId);
      if (!node) throw new DomainError('not_found', `run ${workflowId} has no node ${nodeId}`, { workflow_id: workflowId, node_id: nodeId });
      const statuses = new Map((view.status ?? view.result)?.nodes.map((s) => [s.id, s]) ?? []);
      const state = statuses.get(nodeId)?.state ?? 'pending';
      let resolved: Record<string, unknown> | null = null;
      if (STARTED.has(state)) {
        const index = indexGraph(plan.payload.nodes, plan.payload.edges);
        const preds = index.preds.get(nodeId) ?? { data: [], control: [] };
        const nodes: Record<string, { state: string; output?: unknown }> = {};
        for (const pred of new Set([...preds.data, ...preds.control])) {
          const s = statuses.get(pred);
          if (s) nodes[pred] = { state: s.state, output: s.output };
        }
        const scope: RefScope = { inputs, nodes };
        resolved = resolveTemplates(node.params, scope, index.nodeIds) as Record<string, unknown>;
      }
      return {
        workflow_id: workflowId,
        node_id: nodeId,
        op: node.op,
        state,
        params: node.params,
        resolved_params: resolved,
        guards: node.guards,
        policy: node.policy ?? null,
      };
    },
  };
}
