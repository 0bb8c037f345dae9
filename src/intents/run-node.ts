/**
 * The nodes of a run as the run pinned them. One node: its params as declared in the run's plan
 * snapshot and as resolved against the run's inputs and its predecessors' outputs, exactly as the
 * executor resolved them when it started the node. Every node: id, op and state, a page at a
 * time, in the executor's topological order, also for partitioned runs whose status details only
 * one partition. The run's input is read from the first event of its history, so later revisions
 * of the stored plan never change the answer.
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { indexGraph, topologicalOrder } from '../domain/graph';
import { stateOfCode } from '../domain/partitioning';
import { DomainError } from '../domain/errors';
import type { TrustContext } from '../domain/records';
import type { RunnablePlan } from '../domain/plan-snapshot';
import { collectTemplateRefs, parseRef, resolveTemplates, type RefScope } from '../domain/refs';
import { isPartitionedRun, NODE_STATES, type PartitionedRunInput, type PlanRunInput, type RunStatus } from '../domain/run-state';
import type { RecordStore } from '../store/records';
import type { RunViewer } from './run-view';
import { decimalInteger } from '../domain/decimal-integer';

export const runNodeSchema = z.object({
  workflow_id: z.string(),
  node_id: z.string(),
  op: z.string(),
  state: z.string(),
  /** As written in the plan the run is pinned to. */
  params: z.record(z.string(), z.unknown()),
  /**
   * As the executor passed them to the op; null while the node has not started (or never will),
   * and for a map node, whose every item gets its own.
   */
  resolved_params: z.record(z.string(), z.unknown()).nullable(),
  guards: z.record(z.string(), z.unknown()),
  policy: z.record(z.string(), z.unknown()).nullable(),
});
export type RunNode = z.infer<typeof runNodeSchema>;

export const runNodeListQuerySchema = z
  .object({
    /** Only nodes in this state. */
    state: z.enum(NODE_STATES).optional(),
    /** Nodes to skip, in topological order (after the state filter). */
    offset: decimalInteger(0).default(0),
    limit: decimalInteger(1, 1_000).default(100),
  })
  .strict();
export type RunNodeListQuery = z.input<typeof runNodeListQuerySchema>;

export const runNodeListSchema = z.object({
  workflow_id: z.string(),
  /** Nodes of the plan, and of those the ones in the requested state. */
  node_count: z.number(),
  matching: z.number(),
  offset: z.number(),
  nodes: z.array(z.object({ node_id: z.string(), op: z.string(), state: z.string() })),
});
export type RunNodeList = z.infer<typeof runNodeListSchema>;

const STARTED = new Set(['running', 'succeeded', 'failed']);

/** Creates the node reader over the run viewer (which applies the trust rules) and Temporal. */
export function createRunNodeReader(deps: { client: Client; viewer: Pick<RunViewer, 'view'>; records: Pick<RecordStore, 'get'> }) {
  /** The run's input and the id of its first execution (what `{{run.id}}` resolved to). */
  async function runInput(workflowId: string, runId: string): Promise<{ input: PlanRunInput | PartitionedRunInput; firstRunId: string }> {
    const history = await deps.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const payload = started?.input?.payloads?.[0];
    if (!payload) throw new DomainError('unavailable', `run ${workflowId} has no recorded input`, { workflow_id: workflowId });
    const input = deps.client.options.loadedDataConverter.payloadConverter.fromPayload<PlanRunInput | PartitionedRunInput>(payload);
    return { input, firstRunId: started?.firstExecutionRunId || runId };
  }

  /** The plan of a run: its snapshot, or for a partitioned run the stored record (pinned by revision). */
  async function planOf(workflowId: string, input: PlanRunInput | PartitionedRunInput): Promise<RunnablePlan> {
    if (!isPartitionedRun(input)) return input.plan.payload;
    const record = await deps.records.get(input.partitioned.plan_record_id);
    if (record?.payload.kind !== 'plan_graph' || record.revision !== input.partitioned.plan_revision) {
      throw new DomainError('unavailable', `the plan of run ${workflowId} was revised or removed since it ran`, { workflow_id: workflowId });
    }
    return record.payload;
  }

  /** Every node's state: detailed in the status, else (partitioned runs) its code in `node_states`, by topological position. */
  function statesOf(plan: RunnablePlan, status: RunStatus | undefined): { order: string[]; state: (id: string, position: number) => string } {
    const order = topologicalOrder(indexGraph(plan.nodes, plan.edges)) ?? plan.nodes.map((n) => n.id);
    const detailed = new Map(status?.nodes.map((s) => [s.id, s.state]) ?? []);
    const codes = status?.partitioned?.node_states;
    return { order, state: (id, position) => detailed.get(id) ?? (codes ? stateOfCode(codes[position] ?? 'p') : 'pending') };
  }

  /** The run as its caller may see it: view, pinned input and plan. */
  async function pinned(workflowId: string, trust: TrustContext) {
    const view = await deps.viewer.view(workflowId, trust);
    const { input, firstRunId } = await runInput(workflowId, view.run_id);
    return { view, input, firstRunId, plan: await planOf(workflowId, input), status: view.status ?? view.result };
  }

  return {
    /** Every node of a run, a page at a time: id, op and state, in topological order. */
    async list(workflowId: string, query: RunNodeListQuery, trust: TrustContext): Promise<RunNodeList> {
      const { state, offset, limit } = runNodeListQuerySchema.parse(query);
      const { plan, status } = await pinned(workflowId, trust);
      const ops = new Map(plan.nodes.map((n) => [n.id, n.op]));
      const states = statesOf(plan, status);
      const all = states.order.map((id, position) => ({ node_id: id, op: ops.get(id) ?? '', state: states.state(id, position) }));
      const matching = state ? all.filter((n) => n.state === state) : all;
      return { workflow_id: workflowId, node_count: all.length, matching: matching.length, offset, nodes: matching.slice(offset, offset + limit) };
    },

    async node(workflowId: string, nodeId: string, trust: TrustContext): Promise<RunNode> {
      const { input, firstRunId, plan: payload, status } = await pinned(workflowId, trust);
      const { inputs } = input;
      const node = payload.nodes.find((n) => n.id === nodeId);
      if (!node) throw new DomainError('not_found', `run ${workflowId} has no node ${nodeId}`, { workflow_id: workflowId, node_id: nodeId });
      const statuses = new Map(status?.nodes.map((s) => [s.id, s]) ?? []);
      const detailed = statuses.get(nodeId);
      const states = statesOf(payload, status);
      const state = detailed?.state ?? states.state(nodeId, states.order.indexOf(nodeId));
      let resolved: Record<string, unknown> | null = null;
      const index = indexGraph(payload.nodes, payload.edges);
      const preds = index.preds.get(nodeId) ?? { data: [], control: [] };
      // A partitioned run details only its current partition, and a status leaves out outputs too
      // large to report with the rest: resolving needs every data predecessor's output there.
      const read = collectTemplateRefs(node.params).map(({ ref }) => parseRef(ref, index.nodeIds));
      const known =
        (!status?.partitioned || [...preds.data, ...preds.control].every((p) => statuses.has(p))) &&
        read.every((ref) => ref?.root !== 'node' || statuses.get(ref.nodeId)?.output_omitted === undefined);
      // A map node's params are resolved per item (`{{item}}`, `{{index}}`): there is no one answer.
      if (STARTED.has(state) && detailed && known && node.for_each === undefined) {
        const nodes: Record<string, { state: string; output?: unknown }> = {};
        for (const pred of new Set([...preds.data, ...preds.control])) {
          const s = statuses.get(pred);
          if (s) nodes[pred] = { state: s.state, output: s.output };
        }
        // What `{{run.id}}` resolved to: a resumed run keeps the id of the run it resumes.
        const runRefId = (!isPartitionedRun(input) && input.resume?.run_ref_id) || firstRunId;
        const scope: RefScope = { inputs, nodes, run: { id: runRefId, workflow_id: workflowId } };
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
