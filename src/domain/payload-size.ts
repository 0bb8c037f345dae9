/**
 * What fits in a Temporal payload (2 MB each): a node's activity input, and a run's status.
 *
 * The status is the `status` query's answer and the workflow's result (or its failure's details);
 * Temporal refuses either above 2 MB (the run would end failed by the server, its result lost),
 * yet each node output may be up to NODE_OUTPUT_LIMIT_BYTES. When the whole would not fit, the
 * largest outputs are left out of the status, each marked with its size: the workflow still
 * passes them along data edges, and the activity results (or local-activity markers) that
 * produced them stay in the run's history.
 */
import type { NodeStatus, RunStatus } from './run-state';

/** Largest status, in UTF-8 bytes of its JSON, a run reports; clear of Temporal's 2 MB per payload. */
export const STATUS_LIMIT_BYTES = 1_500_000;

/**
 * Largest input, in UTF-8 bytes of its JSON, a node's activity may be scheduled with: above
 * Temporal's 2 MiB per payload the server would terminate the whole run.
 */
export const NODE_INPUT_LIMIT_BYTES = 2_000_000;

const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 length of a string, counted without encoding it (workflow code has no Buffer). */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    // A surrogate pair is two UTF-16 units and four bytes; a lone surrogate is written as three.
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Most UTF-8 bytes of a failed node's error message, and of the stack trace its failure carries.
 * An op may throw with a whole response body in its message; every copy of it (the node's status,
 * the run's error and row, a partitioned run's carried failures) would otherwise grow with it.
 */
export const ERROR_MESSAGE_LIMIT_BYTES = 8_192;
export const ERROR_STACK_LIMIT_BYTES = 32_768;

/**
 * The text when it fits `limitBytes` of UTF-8; otherwise its start, never splitting a character,
 * followed by a note of its full size, the whole within `limitBytes`.
 */
export function boundedText(text: string, limitBytes: number): string {
  // Cheap first: a text this short cannot be over the limit (at most 3 bytes per UTF-16 unit).
  if (text.length * 3 <= limitBytes) return text;
  const bytes = utf8Length(text);
  if (bytes <= limitBytes) return text;
  const note = ` … [truncated: ${bytes} bytes in all]`;
  const budget = limitBytes - utf8Length(note);
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (used + size > budget) break;
    used += size;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end) + note;
}

/** Size of a value's JSON in UTF-8 bytes. */
export const jsonBytes = (value: unknown): number => utf8Length(JSON.stringify(value) ?? '');

/** What each failed node's message is cut to when a status is still too large without outputs. */
export const STATUS_ERROR_MESSAGE_BYTES = 500;

/**
 * The status as reported: unchanged when it fits `limit`, otherwise with the largest node outputs
 * (ties in node order) replaced by `output_omitted: {bytes}` until it does; if every output is
 * left out and it still does not fit (thousands of failed nodes, each with a long message), the
 * longest error messages are cut to STATUS_ERROR_MESSAGE_BYTES, each saying so, until it does.
 */
export function fitStatus(status: RunStatus, limit = STATUS_LIMIT_BYTES): RunStatus {
  let excess = jsonBytes(status) - limit;
  if (excess <= 0) return status;
  const nodes: NodeStatus[] = [...status.nodes];
  for (const { position, bytes } of largestFirst(nodes, (node) => (node.output === undefined ? 0 : jsonBytes(node.output)))) {
    if (excess <= 0) break;
    const { output: _output, ...rest } = nodes[position]!;
    nodes[position] = { ...rest, output_omitted: { bytes } };
    // `"output":<json>,` gives way to `"output_omitted":{"bytes":N},`.
    excess -= bytes - (String(bytes).length + 19);
  }
  for (const { position, bytes } of largestFirst(nodes, (node) => (node.error ? jsonBytes(node.error.message) : 0))) {
    if (excess <= 0 || bytes <= STATUS_ERROR_MESSAGE_BYTES) break;
    const node = nodes[position]!;
    const message = boundedText(node.error!.message, STATUS_ERROR_MESSAGE_BYTES);
    nodes[position] = { ...node, error: { ...node.error!, message } };
    excess -= bytes - jsonBytes(message);
  }
  return { ...status, nodes };
}

/** Positions of the entries with a positive size, largest first, ties in list order. */
export function largestFirst<T>(entries: readonly T[], size: (entry: T) => number): Array<{ position: number; bytes: number }> {
  return entries
    .map((entry, position) => ({ position, bytes: size(entry) }))
    .filter((n) => n.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes || a.position - b.position);
}
