/**
 * Partitioning a large plan run (docs/execution.md#plans-of-any-size): the nodes, in the
 * executor's topological order, are cut into consecutive partitions of at most `size` nodes;
 * the workflow runs one partition per Temporal run and continues as new between them, carrying
 * every node's state as one character and only the outputs later partitions still read.
 * Pure: the activity that loads a partition and the check before start both use it.
 */
import { BUILTIN_EXECUTOR_OPS } from './approvals';
import { checkGuard } from './guards';
import { indexGraph, topologicalOrder, type GraphIndex } from './graph-index';
import type { PlanEdge, PlanGraphPayload, PlanNode } from './records';
import { collectTemplateRefs, parseRef } from './refs';
import type { NodeState } from './run-state';
import { isSubPlanNode } from './sub-plan';

/** Plans with more nodes than this run partitioned; smaller plans keep the single-run path. */
export const DEFAULT_PARTITION_NODES = 2_000;
/**
 * Why a plan must run in one history whatever its size, or undefined when it may be partitioned:
 * map, sub-plan and approval nodes and the run gate are executor features the partition loop
 * does not run.
 */
export function oneHistoryReason(plan: Pick<PlanGraphPayload, 'nodes' | 'constraints'>): string | undefined {
  if (plan.constraints.requires_approval === true) return 'constraints.requires_approval is true';
  const node = plan.nodes.find((n) => n.for_each !== undefined || isSubPlanNode(n) || BUILTIN_EXECUTOR_OPS.has(n.op));
  if (!node) return undefined;
  const kind = node.for_each !== undefined ? 'a map node (for_each)' : isSubPlanNode(node) ? 'a sub-plan node' : `an ${node.op} node`;
  return `node "${node.id.slice(0, 40)}" is ${kind}`;
}

export const needsOneHistory = (plan: Pick<PlanGraphPayload, 'nodes' | 'constraints'>): boolean => oneHistoryReason(plan) !== undefined;

/**
 * Most nodes a plan that must run in one history may have. A history holds at most 51,200 events
 * and a chain node costs about 6 (its activity's scheduled, started and completed events, and the
 * workflow task each completion starts); past it Temporal terminates the run mid-way.
 */
export const ONE_HISTORY_NODE_LIMIT = 8_000;

/** What the state carried to the next partition may take: Temporal refuses payloads over 2 MB. */
export const CARRIED_STATE_LIMIT_BYTES = 1_900_000;
/** Room kept for the rest of the carried state: failure details (capped), times, ids. */
const CARRIED_OVERHEAD_BYTES = 64_000;
/** Failed nodes whose details a partitioned run carries to its result; the rest are counted. */
export const CARRIED_FAILURES_MAX = 50;
/** Most UTF-8 bytes of each carried failure's message: 50 of them stay inside CARRIED_OVERHEAD_BYTES. */
export const CARRIED_ERROR_MESSAGE_BYTES = 1_000;

/** One character per node state in the carried state string. */
export const STATE_CODES = {
  pending: 'p',
  running: 'r',
  waiting: 'w',
  succeeded: 's',
  failed: 'f',
  skipped: 'k',
  cancelled: 'c',
} as const satisfies Record<NodeState, string>;
/** A failure its node tolerates (`continue_on_error`): it blocks neither the run nor control successors. */
export const TOLERATED_FAILURE_CODE = 't';

export function stateOfCode(code: string): NodeState {
  if (code === TOLERATED_FAILURE_CODE) return 'failed';
  const found = (Object.entries(STATE_CODES) as Array<[NodeState, string]>).find(([, c]) => c === code);
  return found ? found[0] : 'pending';
}

export function codeOfState(state: NodeState, tolerated: boolean): string {
  return state === 'failed' && tolerated ? TOLERATED_FAILURE_CODE : STATE_CODES[state];
}

/** Counts of nodes by state in a carried state string. */
export function countStates(states: string): Record<NodeState, number> {
  const counts: Record<NodeState, number> = { pending: 0, running: 0, waiting: 0, succeeded: 0, failed: 0, skipped: 0, cancelled: 0 };
  for (const code of states) counts[stateOfCode(code)] += 1;
  return counts;
}

/** A plan analysed once for partitioning: order, partition of each node, who reads whose output. */
export interface PlanPartitioning {
  size: number;
  order: string[];
  position: Map<string, number>;
  index: GraphIndex;
  nodes: Map<string, PlanNode>;
  partitions: number;
  /** For a node whose output a later partition reads: the last partition that reads it. */
  lastReader: Map<string, number>;
}

/**
 * The predecessors a node reads: `outputs` over data edges and `{{nodes.X.output…}}` refs in its
 * params and guards; `any` adds those whose state alone a ref reads (`nodes.X.state`), which the
 * node's partition needs as stand-ins but whose outputs need not be carried.
 */
function readPredecessors(node: PlanNode, index: GraphIndex): { outputs: Set<string>; any: Set<string> } {
  const preds = index.preds.get(node.id)!;
  const outputs = new Set(preds.data);
  const any = new Set(preds.data);
  const refs = [...collectTemplateRefs(node.params).map((r) => r.ref), ...(node.guards === undefined ? [] : checkGuard(node.guards).refs)];
  const predIds = [...preds.data, ...preds.control];
  for (const ref of refs) {
    const parsed = ref.startsWith('nodes.') ? parseRef(ref, predIds) : undefined;
    if (parsed?.root !== 'node' || !predIds.includes(parsed.nodeId)) continue;
    any.add(parsed.nodeId);
    if (parsed.field === 'output') outputs.add(parsed.nodeId);
  }
  return { outputs, any };
}

export function analysePlan(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>, size: number): PlanPartitioning {
  if (!Number.isInteger(size) || size < 1) throw new Error(`partition size must be a positive integer, got ${size}`);
  const index = indexGraph(plan.nodes, plan.edges);
  const order = topologicalOrder(index);
  if (!order) throw new Error('the plan has a cycle');
  const position = new Map(order.map((id, i) => [id, i]));
  const nodes = new Map(plan.nodes.map((n) => [n.id, n]));
  const partOf = (id: string) => Math.floor(position.get(id)! / size);
  const lastReader = new Map<string, number>();
  for (const node of plan.nodes) {
    const p = partOf(node.id);
    for (const pred of readPredecessors(node, index).outputs) {
      if (partOf(pred) < p && (lastReader.get(pred) ?? -1) < p) lastReader.set(pred, p);
    }
  }
  return { size, order, position, index, nodes, partitions: Math.ceil(order.length / size), lastReader };
}

/**
 * The most outputs carried across any one boundary between partitions: each is at most the
 * node output limit, so this bounds the carried state before the run starts.
 */
export function maxCarriedOutputs(plan: PlanPartitioning): number {
  const crossing = new Array<number>(plan.partitions + 1).fill(0);
  for (const [id, last] of plan.lastReader) {
    crossing[Math.floor(plan.position.get(id)! / plan.size)]! += 1;
    crossing[last]! -= 1;
  }
  let width = 0;
  let max = 0;
  for (const delta of crossing) {
    width += delta;
    max = Math.max(max, width);
  }
  return max;
}

/**
 * The most the carried state can take at any boundary: every carried output at the node output
 * limit, the run inputs, one character per node and a fixed overhead.
 */
export function carriedStateBound(plan: PlanPartitioning, outputLimitBytes: number, inputsBytes: number): { bytes: number; outputs: number } {
  const outputs = maxCarriedOutputs(plan);
  return { bytes: outputs * outputLimitBytes + inputsBytes + plan.order.length + CARRIED_OVERHEAD_BYTES, outputs };
}

/** A predecessor from an earlier partition, as the partition's run needs it: its state (and output, from the carried outputs). */
export interface ExternalPredecessor {
  /** A stand-in of the node: id, op and whether its failure is tolerated. */
  node: PlanNode;
  code: string;
}

/** What one partition's run loads: its nodes, the earlier nodes they depend on, and which outputs to carry on. */
export interface PartitionSlice {
  index: number;
  partitions: number;
  node_count: number;
  /** Position of the partition's first node in the plan's topological order. */
  first: number;
  nodes: PlanNode[];
  external: ExternalPredecessor[];
  /** Edges into the partition's nodes from the partition itself or from `external`. */
  edges: PlanEdge[];
  /** Nodes (of this or an earlier partition) whose outputs later partitions read. */
  carry: string[];
}

/**
 * The slice of partition `index`, given every node's carried state code (in topological order).
 * Predecessors from earlier partitions are included when the node reads them, or when they
 * block it (a failure not tolerated, or a cancellation: the first such one suffices); the
 * others are final and harmless, so a fan-in of 50,000 does not load 50,000 stand-ins.
 */
export function partitionSlice(plan: PlanPartitioning, index: number, states: string): PartitionSlice {
  const first = index * plan.size;
  const ids = plan.order.slice(first, first + plan.size);
  const inPartition = new Set(ids);
  const external = new Map<string, ExternalPredecessor>();
  const edges: PlanEdge[] = [];
  const addExternal = (id: string) => {
    if (external.has(id)) return;
    const node = plan.nodes.get(id)!;
    const tolerated = node.policy?.continue_on_error === true;
    external.set(id, {
      node: { id, op: node.op, params: {}, ...(tolerated ? { policy: { continue_on_error: true } } : {}) } as PlanNode,
      code: states[plan.position.get(id)!] ?? STATE_CODES.pending,
    });
  };
  for (const id of ids) {
    const node = plan.nodes.get(id)!;
    const preds = plan.index.preds.get(id)!;
    const read = readPredecessors(node, plan.index).any;
    let blocked = false;
    for (const kind of ['data', 'control'] as const) {
      for (const pred of preds[kind]) {
        if (!inPartition.has(pred)) {
          const code = states[plan.position.get(pred)!] ?? STATE_CODES.pending;
          const blocking = code === STATE_CODES.failed || code === STATE_CODES.cancelled;
          if (!read.has(pred) && !(kind === 'control' && blocking && !blocked)) continue;
          if (kind === 'control' && blocking) blocked = true;
          addExternal(pred);
        }
        edges.push({ from: pred, to: id, kind });
      }
    }
  }
  // A data edge implies a read, so every edge kept above has both ends in the slice.
  const kept = edges.filter((e) => inPartition.has(e.from) || external.has(e.from));
  const carry = [...plan.lastReader].filter(([id, last]) => plan.position.get(id)! < first + ids.length && last > index).map(([id]) => id);
  return {
    index,
    partitions: plan.partitions,
    node_count: plan.order.length,
    first,
    nodes: ids.map((id) => plan.nodes.get(id)!),
    external: [...external.values()],
    edges: kept,
    carry: carry.sort(),
  };
}
