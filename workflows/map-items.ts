/**
 * Runs the items of a map node (docs/execution.md#map-nodes): one activity (or local activity) per
 * item, activity id `<node id>[<index>]`, at most `max_parallel` at once (and, inline in a version 4
 * run, within the run's budget of items in flight; inline in a version 6 run, within the
 * workflow-task budget, task-budget.ts). Used inline by the plan executor for small maps
 * and by mapChunkWorkflow for each chunk of a large one.
 */
import { CancellationScope, isCancellation, patched } from '@temporalio/workflow';
import { fitChunkResults, itemActivityId, type ItemResult } from '../src/domain/map-node';
import type { PlanNode } from '../src/domain/records';
import type { NodeActivityResult } from '../src/domain/run-state';
import { describeFailure } from './node-failure';
import type { ItemSlots } from './item-slots';
import { nodeCall } from './node-calls';
import { TaskBudget } from './task-budget';


/** One batch of items of a map node: their resolved params, and where they start in the whole list. */
export interface MapItemsInput {
  node: Pick<PlanNode, 'id' | 'op' | 'policy'>;
  params: Array<Record<string, unknown>>;
  offset: number;
  local: boolean;
  max_parallel: number;
  fail_fast: boolean;
}

/** Each item's result in order; null for an item never run (cancelled after a fail-fast failure). */
export interface MapItemsResult {
  results: Array<ItemResult | null>;
}

/** Runs one item: an activity (or local activity) of the node's op with the item's params. */
function runItem(input: MapItemsInput, index: number, params: Record<string, unknown>, budget: TaskBudget | undefined): Promise<NodeActivityResult> {
  // The item's id (`<node id>[<index>]`) in place of the node's: it is the activity id and names the item in the UI.
  const node = { ...input.node, id: itemActivityId(input.node.id, index), params: {}, guards: {} } as PlanNode;
  return nodeCall(node, { node_id: node.id, params, inputs: {} }, input.local, budget)();
}

/**
 * Runs the items. Under fail_fast the first failure starts no more items and cancels the activity
 * items in flight (local ones finish). A cancellation of the caller's scope cancels activity items
 * and is rethrown once they settle; local items are not interrupted (see below).
 */
export async function runMapItems(input: MapItemsInput, onSettled?: (index: number, result: ItemResult) => void, slots?: ItemSlots, taskBudget?: TaskBudget): Promise<MapItemsResult> {
  const count = input.params.length;
  const results: Array<ItemResult | null> = new Array<ItemResult | null>(count).fill(null);
  let next = 0;
  let failedFast = false;
  let cancelled: unknown;
  const inFlight = new CancellationScope();
  // Local items are never cancelled and never stopped by a cancellation: they run to the end.
  // Cancelling local activities that completed in the same activation trips a state-machine error
  // in the SDK's core (temporalio/sdk-rust#705), and stopping them when the cancellation is seen
  // depends on how local-activity results are grouped into activations, which differs on replay.
  // Local items are not server activities: only activity items count against the run's budget.
  const budget = input.local ? undefined : slots;
  const stopped = () => failedFast || cancelled !== undefined || next >= count;
  const lane = async () => {
    while (!stopped()) {
      const wait = budget?.take();
      if (wait) {
        await wait;
        if (stopped()) {
          budget!.give();
          return;
        }
      }
      const i = next++;
      const index = input.offset + i;
      const call = () => runItem(input, index, input.params[i]!, taskBudget);
      try {
        const r = await (input.local ? CancellationScope.nonCancellable(call) : call());
        results[i] = { ok: true, output: r.output, attempt: r.attempt };
      } catch (err) {
        if (isCancellation(err)) {
          // Cancelled by our own fail-fast stop: the item simply did not finish.
          if (!failedFast) cancelled = err;
          continue;
        }
        results[i] = { ok: false, error: describeFailure(err).error };
        if (input.fail_fast && !failedFast) {
          failedFast = true;
          if (!input.local) inFlight.cancel();
        }
      } finally {
        budget?.give();
      }
      onSettled?.(index, results[i]!);
    }
  };
  await inFlight.run(() => Promise.all(Array.from({ length: Math.min(input.max_parallel, count) }, lane)));
  if (cancelled !== undefined) throw cancelled;
  return { results };
}

/** Chunks started on this code count their items against a workflow-task budget, as inline maps do. */
export const CHUNK_TASK_BUDGET_PATCH = 'map-chunk-task-budget';

/** A chunk of a large map as its own workflow, so no workflow's history outgrows Temporal's limits. */
export async function mapChunkWorkflow(input: MapItemsInput): Promise<MapItemsResult> {
  // Without it, local items with large outputs finishing together made one completion over gRPC's
  // 4 MB, which the server refused: the chunk, and the run waiting on it, stalled for good.
  const budget = patched(CHUNK_TASK_BUDGET_PATCH) ? new TaskBudget(true) : undefined;
  const { results } = await runMapItems(input, undefined, undefined, budget);
  return { results: fitChunkResults(results, input.offset) };
}
