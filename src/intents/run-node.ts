/**
 * One node of a run as the run pinned it: its params as declared in the run's plan snapshot and
 * as resolved against the run's inputs and its predecessors' outputs, exactly as the executor
 * resolved them when it started the node. The run's input is read from the first event of its
 * history, so later revisions of the stored plan never change the answer.
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { indexGraph, topologicalOrder } from '../domain/graph';
import { stateOfCode } from '../domain/partitioning';
import { DomainError } from '../domain/errors';
import type { PlanGraphPayload, TrustContext } from '../domain/records';
import { resolveTemplates, type RefScope } from '../domain/refs';
import { isPartitionedRun, type PartitionedRunInput, type PlanRunInput, type RunStatus } from '../domain/run-state';
import type { RecordStore } from '../store/records';
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
export function createRunNodeReader(deps: { client: Client; viewer: Pick<RunViewer, 'view'>; records: Pick<RecordStore, 'get'> }) {
  async function runInput(workflowId: string, runId: string): Promise<PlanRunInput | PartitionedRunInput> {
    const history = await deps.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    if (!payload) throw new DomainError('unavailable', `run ${workflowId} has no recorded input`, { workflow_id: workflowId });
    return deps.client.options.loadedDataConverter.payloadConverter.fromPayload<PlanRunInput | PartitionedRunInput>(payload);
  }

  /** The plan of a run: its snapshot, or for a partitioned run the stored record (pinned by revision). */
  async function planOf(workflowId: string, input: PlanRunInput | PartitionedRunInput): Promise<PlanGraphPayload> {
    if (!isPartitionedRun(input)) return input.plan.payload;
    const record = await deps.records.get(input.partitioned.plan_record_id);
    if (record?.payload.kind !== 'plan_graph' || record.revision !== input.partitioned.plan_revision) {
      throw new DomainError('unavailable', `the plan of run ${workflowId} was revised or removed since it ran`, { workflow_id: workflowId });
    }
    return record.payload;
  }

  /** A node's state in a partitioned run that does not detail it: its code in `node_states`, by topological position. */
  function stateFromCodes(plan: PlanGraphPayload, status: RunStatus | undefined, nodeId: string): string | undefined {
    const codes = status?.partitioned?.node_states;
    if (!codes) return undefined;
    const position = topologicalOrder(indexGraph(plan.nodes, plan.edges))?.indexOf(nodeId) ?? -1;
    return position < 0 ? undefined : stateOfCode(codes[position] ?? 'p');
  }

  return {
    async node(workflowId: string, nodeId: string, trust: TrustContext): Promise<RunNode> {
      const view = await deps.viewer.view(workflowId, trust);
      const input = await runInput(workflowId, view.run_id);
      const { inputs } = input;
      const payload = await planOf(workflowId, input);
      const node = payload.nodes.find((n) => n.id === nodeId);
      if (!node) throw new DomainError('not_found', `run ${workflowId} has no node ${nodeId}`, { workflow_id: workflowId, node_id: nodeId });
      const status = view.status ?? view.result;
      const statuses = new Map(status?.nodes.map((s) => [s.id, s]) ?? []);
      const detailed = statuses.get(nodeId);
      const state = detailed?.state ?? stateFromCodes(payload, status, nodeId) ?? 'pending';
      let resolved: Record<string, unknown> | null = null;
      const index = indexGraph(payload.nodes, payload.edges);
      const preds = index.preds.get(nodeId) ?? { data: [], control: [] };
      // A partitioned run details only its current partition: resolving needs every predecessor's output there.
      const known = !status?.partitioned || [...preds.data, ...preds.control].every((p) => statuses.has(p));
      if (STARTED.has(state) && detailed && known) {
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
