/**
 * Values a plan keeps fixed that the task asks to change. A plan's params hold constants (a
 * learned plan keeps the args its episodes agreed on); when the task names another value for one
 * of them, the plan would run with its own value instead of the one asked for, so it is not
 * auto-run. Two readings find such a value:
 * - where the plan's phrasings state the fixed value, the task's words standing there ("ask
 *   deploy service 900160 for …" against a plan learned as "ask deploy service 82 for …"), read as
 *   an input's overridden default is (input-suggestions.ts);
 * - a task word of the fixed value's telling kind that no input takes ("… report to
 *   eng-all@example.com" beside a fixed `to: team@example.com` no phrasing names); an address
 *   counts only named as where something goes, not mentioned in passing ("requested by bob@…").
 */
import {
  addressShape,
  inputReader,
  MAX_PHRASINGS,
  overriddenDefaults,
  phrasingWords,
  readInputs,
  sameValue,
  scalarExamples,
  valueShape,
  withoutValues,
  wordsOf,
  type Words,
} from './input-suggestions';
import { leadingAction } from './action-words';
import { planPhrasings } from './phrasing-template';

/** A value the task names where the plan keeps another. */
export interface ValueConflict {
  /** The value the task names. */
  task: string;
  /** Where the plan keeps its own: the node and the param's path in it. */
  node: string;
  param: string;
  /** The plan's fixed value. */
  plan: string;
}

interface FixedValuePlan {
  intent: string;
  description?: string;
  examples?: string[];
  inputs_schema: Record<string, unknown>;
  nodes: ReadonlyArray<{ id: string; params: Record<string, unknown> }>;
}

/**
 * A value's kind when it is telling enough to compare: an e-mail address, a URL, a chat channel
 * (`#ops-alerts`), or an identifier mixing digits with letters or punctuation (`T-102`,
 * `eu-west-1`, `2026-11-29`; in any case: `sup-10500` is a `SUP-10102`). Plain words and numbers
 * say nothing about which param they are for.
 */
export function valueKind(value: string): string | undefined {
  // Any URL is one kind: a fixed endpoint and a named page differ in path, not in kind.
  const address = addressShape(value);
  if (address) return address.startsWith('address w://') ? 'url' : 'e-mail';
  if (/^#[\p{L}\p{N}_][\p{L}\p{N}_.-]*$/u.test(value)) return 'channel';
  const shape = valueShape(value.toLowerCase());
  return /9/.test(shape) && /[^9]/.test(shape) && shape.length >= 3 && !/\s/.test(value) ? shape : undefined;
}

/** Every string and number in a JSON value with its path (`cc[1]`, `headers.to`). */
function scalarLeaves(value: unknown, path: string): Array<{ path: string; value: string | number }> {
  if (typeof value === 'string' || typeof value === 'number') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => scalarLeaves(item, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => scalarLeaves(item, path ? `${path}.${key}` : key));
  return [];
}

interface FixedValue {
  node: string;
  param: string;
  value: string | number;
}

const same = (a: string | number, b: string | number) => sameValue(a) === sameValue(b);

/** The values `task` names that the plan would replace with its own (each fixed param once). */
export function valueConflicts(plan: FixedValuePlan, task: string): ValueConflict[] {
  const fixed = plan.nodes.flatMap((node) =>
    scalarLeaves(node.params, '')
      .filter((leaf) => !String(leaf.value).includes('{{'))
      .map((leaf): FixedValue => ({ node: node.id, param: leaf.path, value: leaf.value })),
  );
  if (fixed.length === 0) return [];
  const words = wordsOf(task);
  const found = [...statedConflicts(plan, fixed, task), ...kindConflicts(plan, fixed, words)];
  return found.filter((conflict, i) => found.findIndex((c) => c.node === conflict.node && c.param === conflict.param) === i);
}

/** Marks the fixed values posed as inputs, apart from the plan's own input names. */
const FIXED = '\u0000fixed:';

/**
 * Fixed values the plan's phrasings state, read off the task as defaulted inputs are: each poses
 * as an input defaulting to its value, beside the plan's own inputs (whose values are theirs).
 */
function statedConflicts(plan: FixedValuePlan, fixed: readonly FixedValue[], task: string): ValueConflict[] {
  // The intent too: a learned plan's is the task it was first learned for.
  const phrasings = [...new Set([plan.intent, ...planPhrasings(plan)])].slice(0, MAX_PHRASINGS);
  const phrased = phrasings.map(phrasingWords);
  // The verb its phrasings lead with is the action gate's to compare, synonyms and all ("flush" for "purge").
  const verbs = new Set(phrasings.flatMap((phrasing) => leadingAction(phrasing)?.word ?? []));
  const stated = fixed.filter((f) => !verbs.has(String(f.value).toLowerCase()) && phrased.some((words) => withoutValues(words, [f.value]).removed > 0));
  if (stated.length === 0) return [];
  const schema = plan.inputs_schema;
  const posed = Object.fromEntries(
    stated.map((f, i) => [`${FIXED}${i}`, { type: typeof f.value === 'number' ? 'number' : 'string', examples: [f.value], default: f.value }]),
  );
  const properties = { ...((schema.properties ?? {}) as Record<string, unknown>), ...posed };
  return overriddenDefaults({ ...schema, properties }, task, {}, phrasings).flatMap(({ name, named }) => {
    if (!name.startsWith(FIXED)) return [];
    const f = stated[Number(name.slice(FIXED.length))]!;
    return [{ task: String(named), node: f.node, param: f.param, plan: String(f.value) }];
  });
}

/** Words naming where something goes or whom it reaches: "report to …", "cc …", "upload it into …". */
const DESTINATION_WORDS: ReadonlySet<string> = new Set(['to', 'into', 'onto', 'cc', 'bcc', 'notify', 'email', 'e-mail', 'mail', 'tell', 'ping', 'alert']);

const ADDRESS_KINDS: ReadonlySet<string> = new Set(['e-mail', 'url']);

/**
 * A task word of a telling kind (valueKind), an address only where named as a destination (after
 * a DESTINATION_WORDS word or the fixed param's own name), that no input takes (none reads it off the task, and none has
 * examples of the kind or is a string without examples, which could take anything), beside a
 * fixed param of that kind whose value the task does not name.
 */
function kindConflicts(plan: FixedValuePlan, fixed: readonly FixedValue[], words: Words): ValueConflict[] {
  const properties = Object.values((plan.inputs_schema.properties ?? {}) as Record<string, { type?: unknown; examples?: unknown }>);
  const takesAnything = properties.some((p) => (p.type === undefined || p.type === 'string') && !scalarExamples(p).some((e) => typeof e === 'string'));
  if (takesAnything) return [];
  const kinded = fixed.flatMap((f) => {
    const kind = typeof f.value === 'string' ? valueKind(f.value) : undefined;
    return kind ? [{ ...f, kind }] : [];
  });
  if (kinded.length === 0) return [];
  const inputKinds = new Set(properties.flatMap((p) => scalarExamples(p).flatMap((e) => valueKind(String(e)) ?? [])));
  const read = readAllInputs(plan, words);
  const named = uniqueWords(words).filter((word) => {
    const kind = valueKind(word);
    return kind !== undefined && !inputKinds.has(kind) && !read.some((value) => same(value, word)) && !fixed.some((f) => same(f.value, word));
  });
  // An address names where something goes after a destination word, or after the param's own name ("from billing@…" for `from`).
  const sentTo = (word: string, param: string) => {
    const key = /([\p{L}_-]+)(\[\d+\])*$/u.exec(param)?.[1]?.toLowerCase();
    return words.at.get(word)!.some((i) => DESTINATION_WORDS.has(words.lower[i - 1] ?? '') || words.lower[i - 1] === key);
  };
  return named.flatMap((word) =>
    kinded
      .filter((f) => f.kind === valueKind(word) && !words.bare.some((w) => same(w, f.value)) && (!ADDRESS_KINDS.has(f.kind) || sentTo(word, f.param)))
      .map((f) => ({ task: word, node: f.node, param: f.param, plan: String(f.value) })),
  );
}

/** Values the plan's inputs, required or defaulted, read off the task. */
function readAllInputs(plan: FixedValuePlan, words: Words): Array<string | number> {
  const phrasings = planPhrasings(plan);
  return (['required', 'defaulted'] as const).flatMap((which) => Object.values(readInputs(inputReader(plan.inputs_schema, phrasings, which), words, {})));
}

const uniqueWords = (words: Words) => [...new Set(words.bare.filter(Boolean))];

/** Conflicts in words, for messages: the values asked for and those the plan keeps. */
export function describeValueConflicts(conflicts: readonly ValueConflict[]): string {
  const each = conflicts.map((c) => `"${c.task}" where the best match always uses "${c.plan}" (node ${c.node}, param ${c.param})`);
  return `the task names ${each.join(' and ')}, and the plan takes no input for ${conflicts.length > 1 ? 'them' : 'it'}`;
}
