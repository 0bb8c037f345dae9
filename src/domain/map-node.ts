/**
 * Map nodes (docs/plan-schema.md#map-nodes): a node with `for_each: "{{ref}}"` runs once per item of
 * the array the reference resolves to, with `{{item}}`, `{{item.path}}` and `{{index}}` in its
 * params. Pure helpers shared by validation and the executor.
 */
import { boundedText, jsonBytes, largestFirst, STATUS_ERROR_MESSAGE_BYTES } from './payload-size';
import type { PlanNode } from './records';
import { lookupRef, parseRef, resolveTemplates, type ParsedRef, type RefScope } from './refs';
import { NODE_ERROR_TYPES, type NodeError } from './run-state';

/**
 * Items per child workflow when a map is too large to run inside the plan's own workflow.
 * Temporal caps a workflow at 51,200 history events (about 6 per activity) and a payload at
 * 2 MB: 1,000 items keep a chunk's history near 6,000 events and its input and result small.
 */
export const MAP_CHUNK_SIZE = 1000;

/** The reference text of a for_each (`{{ nodes.a.output.items }}` → `nodes.a.output.items`), or undefined. */
export function forEachRefText(forEach: string): string | undefined {
  const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(forEach);
  return whole ? whole[1] : undefined;
}

export type ForEachCheck =
  | { ok: true; ref: Extract<ParsedRef, { root: 'inputs' } | { root: 'node' }> }
  | { ok: false; problem: 'not_a_ref' | 'not_a_predecessor'; message: string };

/** Whether a for_each is one reference to the run inputs or a data predecessor's output. */
export function checkForEach(node: Pick<PlanNode, 'id' | 'for_each'>, nodeIds: readonly string[], dataPreds: ReadonlySet<string>): ForEachCheck {
  const text = forEachRefText(node.for_each ?? '');
  const parsed = text === undefined ? undefined : parseRef(text, nodeIds);
  if (!parsed || parsed.root === 'item' || parsed.root === 'index' || parsed.root === 'run' || (parsed.root === 'node' && parsed.field !== 'output')) {
    return {
      ok: false,
      problem: 'not_a_ref',
      message: `node "${node.id}": for_each must be exactly one reference "{{inputs.<path>}}" or "{{nodes.<id>.output.<path>}}", got ${JSON.stringify(node.for_each)}`,
    };
  }
  if (parsed.root === 'node' && !dataPreds.has(parsed.nodeId)) {
    return {
      ok: false,
      problem: 'not_a_predecessor',
      message: `node "${node.id}": for_each references "${text}" but has no data edge ${parsed.nodeId} -> ${node.id}`,
    };
  }
  return { ok: true, ref: parsed };
}

/** The array a map node iterates over, or a message saying what it resolved to instead. */
export function resolveForEach(forEach: string, scope: RefScope, nodeIds: readonly string[]): { items: unknown[] } | { message: string } {
  const text = forEachRefText(forEach);
  const parsed = text === undefined ? undefined : parseRef(text, nodeIds);
  const value = parsed ? lookupRef(parsed, scope) : undefined;
  if (Array.isArray(value)) return { items: value };
  const got = value === undefined ? 'nothing' : value === null ? 'null' : typeof value;
  return { message: `for_each ${forEach} resolved to ${got}, not an array` };
}

/** Each item's params: the node's params with `{{item…}}` and `{{index}}` resolved as well. */
export function itemParams(params: Record<string, unknown>, scope: RefScope, nodeIds: readonly string[], items: readonly unknown[]): Array<Record<string, unknown>> {
  return items.map((item, index) => resolveTemplates(params, { ...scope, item, index }, nodeIds) as Record<string, unknown>);
}

/** [start, end) ranges of at most `size` items covering `count` items in order. */
export function chunkRanges(count: number, size: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let start = 0; start < count; start += size) ranges.push([start, Math.min(count, start + size)]);
  return ranges;
}

/** Activity id of one item: `<node id>[<index>]`. */
export const itemActivityId = (nodeId: string, index: number) => `${nodeId}[${index}]`;

/**
 * The map node and item index whose activity id `id` would be (`m[3]` → item 3 of map node m), for
 * an id in a plan whose map nodes are `mapIds`: a node of that id would clash with the item.
 */
export function itemOfActivityId(id: string, mapIds: ReadonlySet<string>): { mapId: string; index: number } | undefined {
  const match = /^(.+)\[(0|[1-9]\d*)\]$/s.exec(id);
  return match && mapIds.has(match[1]!) ? { mapId: match[1]!, index: Number(match[2]) } : undefined;
}

/** How the `status` query shows a map node's items. */
export interface MapProgress {
  total: number;
  succeeded: number;
  failed: number;
  /** Indexes of failed items, the first 100 of them. */
  failed_indexes: number[];
}

/** The failure of a map under failure_policy "continue": lists the failed indexes (the first 100). */
export function failedItemsMessage(failed: readonly number[], total: number, first?: { type: string; message: string }): string {
  const shown = failed.slice(0, 100).join(', ');
  const more = failed.length > 100 ? `, … (${failed.length - 100} more)` : '';
  const cause = first ? `; item ${failed[0]}: ${first.type}: ${first.message}` : '';
  return `${failed.length} of ${total} items failed: [${shown}${more}]${cause}`;
}

/** How one item of a map ended. */
export type ItemResult = { ok: true; output: unknown; attempt: number } | { ok: false; error: NodeError };

/** Largest result, in UTF-8 bytes of its JSON, a map chunk returns; clear of Temporal's 2 MB per payload. */
export const CHUNK_RESULT_LIMIT_BYTES = 1_900_000;

/**
 * A map chunk's item results as it returns them (null: an item never run): unchanged when their
 * JSON fits `limit`; otherwise the items with the largest outputs (ties in item order) fail with
 * output_too_large until it does, or until an output is no larger than the error in its place;
 * then the longest error messages (up to 8 KB each) are cut to STATUS_ERROR_MESSAGE_BYTES, each
 * saying so. Above 2 MB the server would fail the chunk, and every item's outcome with it.
 */
export function fitChunkResults(results: ReadonlyArray<ItemResult | null>, offset: number, limit = CHUNK_RESULT_LIMIT_BYTES): Array<ItemResult | null> {
  const total = jsonBytes(results);
  let excess = total - limit;
  if (excess <= 0) return [...results];
  const fitted = [...results];
  for (const { position, bytes } of largestFirst(fitted, (r) => (r?.ok ? jsonBytes(r.output) : 0))) {
    if (excess <= 0) break;
    const message =
      `item ${offset + position}'s output is ${bytes} bytes, and the outputs of items ${offset}–${offset + results.length - 1} are ${total} bytes ` +
      `together: more than a map chunk can return (${limit} bytes; Temporal allows 2 MB per payload); return less per item, e.g. where the data is stored`;
    const failed: ItemResult = { ok: false, error: { type: NODE_ERROR_TYPES.outputTooLarge, message } };
    const saved = jsonBytes(fitted[position]) - jsonBytes(failed);
    if (saved <= 0) break;
    fitted[position] = failed;
    excess -= saved;
  }
  for (const { position, bytes } of largestFirst(fitted, (r) => (r && !r.ok ? jsonBytes(r.error.message) : 0))) {
    if (excess <= 0 || bytes <= STATUS_ERROR_MESSAGE_BYTES) break;
    const { error } = fitted[position] as Extract<ItemResult, { ok: false }>;
    const message = boundedText(error.message, STATUS_ERROR_MESSAGE_BYTES);
    fitted[position] = { ok: false, error: { ...error, message } };
    excess -= bytes - jsonBytes(message);
  }
  return fitted;
}
