/**
 * References from params and guards into run inputs, upstream node outputs and the run itself:
 * `inputs.<path>`, `nodes.<id>.output.<path>`, `nodes.<id>.state`, `run.id`, `run.workflow_id`.
 * In params a reference is written `{{ … }}`: a string that is exactly one reference keeps the
 * referenced JSON value; references inside a longer string are interpolated as text.
 */

/**
 * The run a reference is resolved in. `id` is the run's id as the API reports it (`run_id`, the
 * UUID of its first execution: the same in every partition and every retry, new for every run),
 * which makes a request id or an idempotency key that a run's retries share and no other run does.
 */
export interface RunRef {
  id: string;
  workflow_id: string;
}

/**
 * What a reference can see: the run inputs and each finished node's state and output; inside
 * one item of a map node (map-node.ts) also the item and its index; the run's ids where known.
 */
export interface RefScope {
  inputs: unknown;
  nodes: Readonly<Record<string, { state: string; output?: unknown } | undefined>>;
  item?: unknown;
  index?: number;
  run?: RunRef;
}

export type ParsedRef =
  | { root: 'inputs'; path: string[] }
  | { root: 'node'; nodeId: string; field: 'output' | 'state'; path: string[] }
  | { root: 'item'; path: string[] }
  | { root: 'index'; path: [] }
  | { root: 'run'; field: keyof RunRef; path: [] };

/** One `{{ … }}` template inside a string (global: use with matchAll or replace). */
export const TEMPLATE = /\{\{\s*([^{}]+?)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\{\{\s*([^{}]+?)\s*\}\}$/;

/** Parses a reference; node ids may contain dots, so the longest known id wins. */
export function parseRef(ref: string, nodeIds: readonly string[]): ParsedRef | undefined {
  if (ref === 'item' || ref.startsWith('item.')) return { root: 'item', path: ref === 'item' ? [] : ref.slice('item.'.length).split('.') };
  if (ref === 'index') return { root: 'index', path: [] };
  if (ref === 'run.id' || ref === 'run.workflow_id') return { root: 'run', field: ref === 'run.id' ? 'id' : 'workflow_id', path: [] };
  if (ref === 'inputs' || ref.startsWith('inputs.')) {
    return { root: 'inputs', path: ref === 'inputs' ? [] : ref.slice('inputs.'.length).split('.') };
  }
  if (!ref.startsWith('nodes.')) return undefined;
  const rest = ref.slice('nodes.'.length);
  let best: string | undefined;
  for (const id of nodeIds) {
    if ((rest.startsWith(`${id}.output`) || rest === `${id}.state`) && (best === undefined || id.length > best.length)) {
      best = id;
    }
  }
  if (best === undefined) {
    // Unknown node: still report the id the reference names so validation can say which.
    const [nodeId = '', field, ...path] = rest.split('.');
    if (field === 'state' && path.length === 0) return { root: 'node', nodeId, field, path };
    return field === 'output' ? { root: 'node', nodeId, field, path } : undefined;
  }
  const tail = rest.slice(best.length + 1);
  const [field, ...path] = tail.split('.');
  if (field === 'state' && path.length === 0) return { root: 'node', nodeId: best, field: 'state', path: [] };
  if (field !== 'output') return undefined;
  return { root: 'node', nodeId: best, field: 'output', path };
}

function walk(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current) ? current[Number(key)] : (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Looks a parsed reference up in the scope; undefined when it does not resolve. */
export function lookupRef(ref: ParsedRef, scope: RefScope): unknown {
  if (ref.root === 'inputs') return walk(scope.inputs, ref.path);
  if (ref.root === 'item') return walk(scope.item, ref.path);
  if (ref.root === 'index') return scope.index;
  if (ref.root === 'run') return scope.run?.[ref.field];
  const node = scope.nodes[ref.nodeId];
  if (!node) return undefined;
  return ref.field === 'state' ? node.state : walk(node.output, ref.path);
}

/** Every reference text found in the `{{ }}` templates of a JSON value, with its path. */
export function collectTemplateRefs(value: unknown, path = ''): Array<{ ref: string; path: string }> {
  if (typeof value === 'string') {
    return [...value.matchAll(TEMPLATE)].map((m) => ({ ref: (m[1] ?? '').trim(), path }));
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => collectTemplateRefs(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.keys(value)
      .sort()
      .flatMap((k) => collectTemplateRefs((value as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return [];
}

/** Resolves every `{{ }}` template in a JSON value against the scope. */
export function resolveTemplates(value: unknown, scope: RefScope, nodeIds: readonly string[]): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_TEMPLATE.exec(value);
    if (whole) {
      const parsed = parseRef((whole[1] ?? '').trim(), nodeIds);
      return parsed ? lookupRef(parsed, scope) : undefined;
    }
    return value.replace(TEMPLATE, (_match, ref: string) => {
      const parsed = parseRef(ref.trim(), nodeIds);
      const found = parsed ? lookupRef(parsed, scope) : undefined;
      if (found === undefined || found === null) return '';
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolveTemplates(v, scope, nodeIds));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = resolveTemplates((value as Record<string, unknown>)[key], scope, nodeIds);
    }
    return out;
  }
  return value;
}

/**
 * The references to an upstream node's output that do not resolve in `scope` (the producer
 * succeeded, but its output has no such path), each with where it is written and what the output
 * has there instead, as a sentence. A node run without them would get a param left out, or an
 * empty string inside a text ("cd  && npm test"): runs started on UNRESOLVED_REF_VERSION fail it.
 */
export function unresolvedOutputRefs(value: unknown, scope: RefScope, nodeIds: readonly string[]): string[] {
  return collectTemplateRefs(value).flatMap(({ ref, path }) => {
    const parsed = parseRef(ref, nodeIds);
    if (parsed?.root !== 'node' || parsed.field !== 'output' || lookupRef(parsed, scope) !== undefined) return [];
    const output = scope.nodes[parsed.nodeId]?.output;
    // The deepest part of the path the output has, and what it holds there.
    let found = 0;
    while (found < parsed.path.length && walk(output, parsed.path.slice(0, found + 1)) !== undefined) found += 1;
    const at = walk(output, parsed.path.slice(0, found));
    const where = found === 0 ? `the output of "${parsed.nodeId}"` : `"${parsed.path.slice(0, found).join('.')}" in the output of "${parsed.nodeId}"`;
    const has = at !== null && typeof at === 'object' ? `has ${Array.isArray(at) ? `${at.length} items` : `only ${Object.keys(at).slice(0, 10).join(', ') || 'no keys'}`}` : `is ${at === undefined ? 'empty' : JSON.stringify(at).slice(0, 60)}`;
    return [`${path || 'params'} reads {{${ref}}}, but ${where} ${has}`];
  });
}
