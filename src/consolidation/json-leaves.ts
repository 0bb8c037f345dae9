/**
 * The scalar leaves of JSON values, as consolidation traces them: where a value sits, whether it
 * is distinctive enough to be traced, and how to write a reference to it.
 */

/** Where a leaf sits in a JSON value: object keys and array indices. */
export type JsonPath = ReadonlyArray<string | number>;

export interface Leaf {
  path: JsonPath;
  value: string | number;
}

/**
 * Whether a value is distinctive enough to be a trace of data flow: a string of 4+ characters,
 * or a number other than a small integer (−1..10 are counters, flags and indices, not data).
 * Booleans and null never are.
 */
export function isTraceable(value: unknown): value is string | number {
  if (typeof value === 'string') return value.length >= 4;
  if (typeof value === 'number') return Number.isFinite(value) && !(Number.isInteger(value) && value >= -1 && value <= 10);
  return false;
}

/** Every string and number leaf of a JSON value, depth first, in key order. */
export function leaves(value: unknown, path: JsonPath = [], out: Leaf[] = []): Leaf[] {
  if (typeof value === 'string' || typeof value === 'number') out.push({ path, value });
  else if (Array.isArray(value)) value.forEach((item, i) => leaves(item, [...path, i], out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) leaves(item, [...path, key], out);
  }
  return out;
}

/** A key a `{{ a.b.c }}` reference can name: no dots (the separator), braces or spaces. */
const REF_SAFE = /^[^.{}\s]+$/;

/** Whether every segment of a path can be written inside a reference. */
export function isRefSafePath(path: JsonPath): boolean {
  return path.every((segment) => typeof segment === 'number' || REF_SAFE.test(segment));
}

/** Whether a node id can be written inside a reference (dots are fine: the longest id wins). */
export function isRefSafeId(id: string): boolean {
  return /^[^{}\s]+$/.test(id);
}

/** The reference to a node output's leaf, e.g. `{{nodes.clone.output.repo.path}}`. */
export function outputRef(nodeId: string, path: JsonPath): string {
  return `{{nodes.${[nodeId, 'output', ...path].join('.')}}}`;
}

/** A copy of a JSON value with the leaf at `path` replaced. */
export function withLeaf(value: unknown, path: JsonPath, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? withLeaf(item, rest, leaf) : item));
  const record = value as Record<string, unknown>;
  return { ...record, [head!]: withLeaf(record[head!], rest, leaf) };
}

/** Whether a string holds a `{{ }}` template (a reference written earlier). */
export const isTemplate = (value: unknown): boolean => typeof value === 'string' && value.includes('{{');

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
