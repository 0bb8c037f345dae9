/**
 * Data edges from value provenance: when a tool call's argument carries a value an earlier call
 * returned, the value flowed from that call's result, so the learned plan should pass it along
 * (a `data` edge and a `{{nodes.<id>.output.<path>}}` reference) instead of replaying the literal.
 */
import type { PlanEdge, ToolNode } from '../domain/records';
import { canonicalJson } from '../domain/canonical-json';
import { isRefSafeId, isRefSafePath, isTemplate, isTraceable, leaves, outputRef, withLeaf, type JsonPath } from './json-leaves';
import { firstAlone } from './stated-tokens';
import { interpolate, type ProducedString, type Producer } from './produced-strings';

type TracedNode = Pick<ToolNode, 'id' | 'args' | 'result' | 'timestamp' | 'depends_on'>;

/** The plan-side view of an episode's tool graph: params with references, and the edges. */
export interface DataFlow {
  /** Params per node id: the args, with traced values rewritten as references. */
  params: Map<string, Record<string, unknown>>;
  edges: PlanEdge[];
}


const valueKey = (value: string | number) => `${typeof value}:${value}`;
const instantMs = (t: string | number | undefined) => (t === undefined ? NaN : typeof t === 'number' ? t : Date.parse(t));

/** Hop distance from each ancestor (through `depends_on`) to the node; the node itself excluded. */
function ancestorDistances(nodes: readonly TracedNode[], index: Map<string, number>, of: number): Map<number, number> {
  const distances = new Map<number, number>();
  let frontier = [of];
  for (let hops = 1; frontier.length > 0; hops++) {
    const next: number[] = [];
    for (const n of frontier) {
      for (const dep of nodes[n]!.depends_on) {
        const d = index.get(dep);
        if (d === undefined || d === of || distances.has(d)) continue;
        distances.set(d, hops);
        next.push(d);
      }
    }
    frontier = next;
  }
  return distances;
}

/** Whether `to` is reachable from `from` over the successor lists. */
function reaches(successors: ReadonlyArray<Set<number>>, from: number, to: number): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n === to) return true;
    for (const s of successors[n]!) {
      if (seen.has(s)) continue;
      seen.add(s);
      stack.push(s);
    }
  }
  return false;
}

/**
 * A three-letter word (`low`, `dev`) is as likely equal by coincidence as passed on, so it is
 * traced only whole, and only from the one ancestor whose result holds it: a ticket's priority
 * `low` passed to the labelling call, which the twins with `high` and `urgent` read from the
 * ticket too.
 */
const isShortWord = (value: unknown): value is string => typeof value === 'string' && value.length === 3 && /^\p{L}+$/u.test(value);

/**
 * Traces values from results to later args and rewrites the args as references.
 *
 * First, an array or object of a node's args holding a traceable leaf (or 3+ scalars) and equal (key order aside)
 * to a whole result or to an array or object inside one becomes one reference to it (the outermost such value),
 * chosen among producers by the rules below. Then, a leaf of the args left that is traceable
 * (see `isTraceable`; a three-letter word only whole, from one ancestor: `isShortWord`) and
 * equals a leaf of another node's result is taken from that node: an ancestor through
 * `depends_on`, else a node with an earlier `timestamp` (never one the
 * consumer already precedes, so no cycle; never itself). A whole value becomes
 * `{{nodes.<id>.output.<path>}}` (resolving to the JSON value, type kept); occurrences inside a
 * longer string become interpolated references, longest match first (a number of 4+ characters
 * by its decimal text: issue `4521` in `/issues/4521/labels`). When several nodes
 * produced the value, the nearest ancestor wins, then the shortest result path, then the
 * earlier node (for time-ordered producers: the most recent one). Each producer → consumer pair
 * gets one `data` edge, which replaces a `control` edge between the same pair.
 *
 * A whole value the task states (`stated`) is traced only when a call it came back from was given
 * it (a lookup by that order id or name, echoing it): else the result holding it too is the
 * record as it stood (the order's old city, the account's usual currency), and the user's word is
 * what a run for another task must take (task-inputs.ts makes it an input).
 */
export function traceDataFlow(nodes: readonly TracedNode[], stated: (value: string | number) => boolean = () => false): DataFlow {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const produced = new Map<string, Producer[]>();
  const producedStrings: Array<Array<ProducedString>> = nodes.map(() => []);
  nodes.forEach((node, i) => {
    if (node.result === undefined || !isRefSafeId(node.id)) return;
    for (const leaf of leaves(node.result)) {
      if (!isRefSafePath(leaf.path)) continue;
      // A one-digit count is traced only beside the words of its key ("(5 days left)" from `days_left`: see interpolate).
      if (typeof leaf.value === 'number' && Number.isInteger(leaf.value) && leaf.value >= 0 && leaf.value <= 9 && typeof leaf.path.at(-1) === 'string') {
        producedStrings[i]!.push({ value: String(leaf.value), path: leaf.path, keyed: true });
        continue;
      }
      if (!isTraceable(leaf.value)) continue;
      const key = valueKey(leaf.value);
      produced.set(key, [...(produced.get(key) ?? []), { node: i, path: leaf.path }]);
      // A number is found inside a longer string by its digits (`/issues/4521/labels`, `lat=48.85`);
      // short ones (a count of 12) stand in too many texts by coincidence, though one of two or
      // three digits that is a whole segment of a URL path (`/issues/812/labels`) or a reference
      // (`#88` in "New issue acme/api#88") names what it returned.
      const text = String(leaf.value);
      if (typeof leaf.value === 'string' || text.length >= MIN_NUMBER_TEXT) producedStrings[i]!.push({ value: text, path: leaf.path });
      else if (text.length >= MIN_SEGMENT_NUMBER_TEXT) producedStrings[i]!.push({ value: text, path: leaf.path, segment: true });
    }
  });

  const producedWords = new Map<string, Producer[]>();
  nodes.forEach((node, i) => {
    if (node.result === undefined || !isRefSafeId(node.id)) return;
    for (const leaf of leaves(node.result)) {
      if (isShortWord(leaf.value) && isRefSafePath(leaf.path)) producedWords.set(leaf.value, [...(producedWords.get(leaf.value) ?? []), { node: i, path: leaf.path }]);
    }
  });

  const producedCompound = new Map<string, Producer[]>();
  nodes.forEach((node, i) => {
    if (node.result === undefined || !isRefSafeId(node.id)) return;
    for (const { path, value } of compounds(node.result)) {
      if (!isRefSafePath(path)) continue;
      const key = canonicalJson(value);
      producedCompound.set(key, [...(producedCompound.get(key) ?? []), { node: i, path }]);
    }
  });

  const successors = nodes.map(() => new Set<number>());
  nodes.forEach((node, i) => {
    for (const dep of node.depends_on) {
      const d = index.get(dep);
      if (d !== undefined && d !== i) successors[d]!.add(i);
    }
  });
  /** Whether a stated value some calls returned reached their results by coincidence: none was given it. */
  const coincidental = (value: string | number, producers: readonly Producer[]) =>
    producers.length > 0 && stated(value) && !producers.some((p) => leaves(nodes[p.node]!.args).some((l) => l.value === value || (typeof l.value === 'string' && firstAlone(l.value, String(value)) >= 0)));
  const dataPairs = new Set<string>();
  const dataEdges: PlanEdge[] = [];
  const params = new Map<string, Record<string, unknown>>();

  nodes.forEach((node, c) => {
    let args: Record<string, unknown> = node.args;
    params.set(node.id, args);
    if (produced.size === 0 && producedCompound.size === 0 && producedStrings.every((list) => list.length === 0)) return;
    const ancestors = ancestorDistances(nodes, index, c);
    const at = instantMs(node.timestamp);
    /** Sort key of a producer for this consumer, or undefined when it may not feed it. */
    const rank = (p: Producer): number[] | undefined => {
      if (p.node === c) return undefined;
      const hops = ancestors.get(p.node);
      if (hops !== undefined) return [0, hops, p.path.length, p.node];
      const before = at - instantMs(nodes[p.node]!.timestamp);
      if (!(before > 0) || reaches(successors, c, p.node)) return undefined;
      return [1, before, p.path.length, p.node];
    };
    const best = (candidates: readonly Producer[]): Producer | undefined => {
      let chosen: { p: Producer; key: number[] } | undefined;
      for (const p of candidates) {
        const key = rank(p);
        if (key && (!chosen || compareRanks(key, chosen.key) < 0)) chosen = { p, key };
      }
      return chosen?.p;
    };
    const link = (p: Producer) => {
      const pair = `${p.node}>${c}`;
      if (dataPairs.has(pair)) return;
      dataPairs.add(pair);
      successors[p.node]!.add(c);
      dataEdges.push({ from: nodes[p.node]!.id, to: node.id, kind: 'data' });
    };

    // Whole arrays and objects first (outermost first), then the leaves left.
    for (const { path, value } of compounds(node.args)) {
      if (path.length === 0 || !isRefSafePath(path)) continue;
      const from = best(producedCompound.get(canonicalJson(value)) ?? []);
      if (!from || isUnder(args, path)) continue;
      link(from);
      args = withLeaf(args, path, outputRef(nodes[from.node]!.id, from.path)) as Record<string, unknown>;
    }
    for (const leaf of leaves(args)) {
      if (isShortWord(leaf.value)) {
        const from = (producedWords.get(leaf.value) ?? []).filter((p) => p.node !== c && ancestors.has(p.node));
        if (from.length === 1 && !coincidental(leaf.value, from)) {
          link(from[0]!);
          args = withLeaf(args, leaf.path, outputRef(nodes[from[0]!.node]!.id, from[0]!.path)) as Record<string, unknown>;
        }
        continue;
      }
      if (!isTraceable(leaf.value) || isTemplate(leaf.value)) continue;
      const producers = produced.get(valueKey(leaf.value)) ?? [];
      if (coincidental(leaf.value, producers.filter((p) => rank(p) !== undefined))) continue;
      const whole = best(producers);
      if (whole) {
        link(whole);
        args = withLeaf(args, leaf.path, outputRef(nodes[whole.node]!.id, whole.path)) as Record<string, unknown>;
      } else if (typeof leaf.value === 'string') {
        const rewritten = interpolate(leaf.value, producedStrings, best, link, nodes, (p) => ancestors.get(p.node) === 1);
        if (rewritten !== leaf.value) args = withLeaf(args, leaf.path, rewritten) as Record<string, unknown>;
      }
    }
    params.set(node.id, args);
  });

  const controls = nodes.flatMap((node, c) =>
    [...new Set(node.depends_on)]
      .filter((dep) => !dataPairs.has(`${index.get(dep)}>${c}`))
      .map((dep): PlanEdge => ({ from: dep, to: node.id, kind: 'control' })),
  );
  return { params, edges: [...controls, ...dataEdges] };
}

/**
 * Every array and object inside a JSON value (itself included) that holds a traceable leaf or at
 * least MIN_EVIDENT_SCALARS scalars, outermost first: as for single leaves, `{"retries": 3}` or
 * `[true]` equal by coincidence are no evidence of data flow, but a health report
 * `{"status": "ok", "database": {"ok": true}, "queue": {"ok": true}}` passed on whole is.
 */
function compounds(value: unknown, path: JsonPath = [], out: Array<{ path: JsonPath; value: unknown }> = []) {
  const evident = (v: unknown) => leaves(v).some((l) => isTraceable(l.value)) || scalarCount(v) >= MIN_EVIDENT_SCALARS;
  if (Array.isArray(value)) {
    if (evident(value)) out.push({ path, value });
    value.forEach((item, i) => compounds(item, [...path, i], out));
  } else if (value !== null && typeof value === 'object') {
    if (evident(value)) out.push({ path, value });
    for (const [key, item] of Object.entries(value)) compounds(item, [...path, key], out);
  }
  return out;
}

/** Fewest characters of a number's decimal text for it to be traced inside a longer string. */
const MIN_NUMBER_TEXT = 4;
/** Fewest characters of a number's decimal text for it to be traced as a whole URL path segment. */
const MIN_SEGMENT_NUMBER_TEXT = 2;

/** Fewest scalars (strings, numbers, booleans, nulls) that make an array or object equal to a result no coincidence. */
const MIN_EVIDENT_SCALARS = 3;

/** How many scalars a JSON value holds, at any depth. */
function scalarCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + scalarCount(item), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + scalarCount(item), 0);
  return 1;
}

/** Whether the value at `path` was already replaced by a reference (a string on the way down). */
function isUnder(value: unknown, path: JsonPath): boolean {
  let current = value;
  for (const segment of path) {
    if (typeof current === 'string') return true;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return typeof current === 'string';
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
