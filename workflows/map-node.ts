/**
 * A map node in the plan executor (docs/execution.md#map-nodes): resolves its for_each, runs its
 * items inline when they fit one chunk and as sequential mapChunkWorkflow children otherwise, and
 * folds the item results into the node's output or error.
 */
import { executeChild, workflowInfo } from '@temporalio/workflow';
import { chunkRanges, failedItemsMessage, itemParams, MAP_CHUNK_SIZE, resolveForEach, type ItemResult, type MapProgress } from '../src/domain/map-node';
import type { PlanNode } from '../src/domain/records';
import type { RefScope } from '../src/domain/refs';
import { NODE_ERROR_TYPES, type NodeError } from '../src/domain/run-state';
import type { ItemSlots } from './item-slots';
import { runMapItems, type MapItemsInput, type mapChunkWorkflow } from './map-items';
import type { TaskBudget } from './task-budget';

/** What a node run by the executor itself (map, sub-plan) ends with: an output, and an error if it failed. */
export interface CompositeResult {
  output?: unknown;
  attempts: number;
  error?: NodeError;
}

export interface MapNodeContext {
  node: PlanNode;
  scope: RefScope;
  nodeIds: readonly string[];
  local: boolean;
  maxParallel: number;
  failFast: boolean;
  onProgress: (progress: MapProgress) => void;
  /** The run's budget of inline activity items in flight (version 4 runs). */
  itemSlots?: ItemSlots;
  /** The run's workflow-task budget for inline items (version 6 runs); a chunk has its own. */
  taskBudget?: TaskBudget;
}

/** Runs a map node; a cancellation of its scope is rethrown once its items have settled. */
export async function runMapNode(ctx: MapNodeContext): Promise<CompositeResult> {
  const { node } = ctx;
  const resolved = resolveForEach(node.for_each ?? '', ctx.scope, ctx.nodeIds);
  if ('message' in resolved) return { attempts: 1, error: { type: NODE_ERROR_TYPES.forEachNotArray, message: resolved.message } };
  const params = itemParams(node.params, ctx.scope, ctx.nodeIds, resolved.items);
  const total = params.length;
  const progress: MapProgress = { total, succeeded: 0, failed: 0, failed_indexes: [] };
  const count = (index: number, result: ItemResult | null) => {
    if (result?.ok) progress.succeeded += 1;
    else if (result) {
      progress.failed += 1;
      if (progress.failed_indexes.length < 100) progress.failed_indexes.push(index);
    }
  };
  const report = () => ctx.onProgress({ ...progress, failed_indexes: [...progress.failed_indexes].sort((a, b) => a - b) });
  report();

  const batch = (start: number, end: number): MapItemsInput => ({
    node: { id: node.id, op: node.op, policy: node.policy },
    params: params.slice(start, end),
    offset: start,
    local: ctx.local,
    max_parallel: ctx.maxParallel,
    fail_fast: ctx.failFast,
  });
  const results: Array<ItemResult | null> = [];
  if (total <= MAP_CHUNK_SIZE) {
    const settled = (index: number, result: ItemResult) => {
      count(index, result);
      report();
    };
    results.push(...(await runMapItems(batch(0, total), settled, ctx.itemSlots, ctx.taskBudget)).results);
  } else {
    // One chunk at a time: together they never run more than max_parallel items at once.
    for (const [start, end] of chunkRanges(total, MAP_CHUNK_SIZE)) {
      const chunk = await executeChild<typeof mapChunkWorkflow>('mapChunkWorkflow', {
        workflowId: `${workflowInfo().workflowId}/${node.id}[${start}-${end - 1}]`,
        args: [batch(start, end)],
        staticSummary: `${node.op} · ${node.id}[${start}…${end - 1}]`,
      });
      chunk.results.forEach((r, i) => count(start + i, r));
      results.push(...chunk.results);
      report();
      if (ctx.failFast && chunk.results.some((r) => r && !r.ok)) break;
    }
  }

  const failed = results.flatMap((r, i) => (r && !r.ok ? [i] : []));
  if (failed.length === 0) return { output: results.map((r) => (r?.ok ? r.output : null)), attempts: 1 };
  const first = results[failed[0]!] as Extract<ItemResult, { ok: false }>;
  if (ctx.failFast) {
    return { attempts: 1, error: { type: NODE_ERROR_TYPES.mapItemFailed, message: `item ${failed[0]} failed: ${first.error.type}: ${first.error.message}` } };
  }
  return {
    output: results.map((r) => (r?.ok ? r.output : null)),
    attempts: 1,
    error: { type: NODE_ERROR_TYPES.mapItemsFailed, message: failedItemsMessage(failed, total, first.error) },
  };
}
