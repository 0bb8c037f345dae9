/**
 * Values a plan keeps fixed that the task asks to change. A plan's params hold constants (a
 * learned plan keeps the args its episodes agreed on); when the task names another value for one
 * of them, the plan would run with its own value instead of the one asked for, so it is not
 * auto-run. Four readings find such a value:
 * - where the plan's phrasings state the fixed value, the task's words standing there ("ask
 *   deploy service 900160 for …" against a plan learned as "ask deploy service 82 for …"), read as
 *   an input's overridden default is (input-disagreements.ts);
 * - a task word of the fixed value's telling kind (value-kinds.ts) that no input takes ("…
 *   report to eng-all@example.com" beside a fixed `to: team@example.com`, "as a PDF" beside
 *   `format: csv`); an address counts only named as where something goes, not mentioned in
 *   passing ("requested by bob@…");
 * - the word beside the fixed param's name ("in the staging namespace": keyed-values.ts);
 * - a value of the same joined shape as one inside a longer fixed param ("week 2025-W20" against a
 *   query for `week = '2025-W18'`: embedded-values.ts).
 * Failing those, a period the plan's wording names where the task names another (worded-values.ts),
 * an e-mail address the task sends to where the plan has none ("email it to cfo@corp.example"
 * against a plan posting to a chat channel), or a number the plan has nowhere to take ("a partial
 * refund of 1500" against a plan refunding the amount its lookup returned).
 */
import {
  inputReader,
  MAX_PHRASINGS,
  phrasingWords,
  readInputs,
  scalarExamples,
  valueShape,
  withoutValues,
  wordsOf,
  type Words,
} from './input-suggestions';
import { leadingAction } from './action-words';
import { overriddenDefaults } from './input-disagreements';
import { keyedConflicts, keyWords } from './keyed-values';
import { classLeadWords, PLACE_LEAD_WORDS, regionOfPlace } from './value-classes';
import { namesAnyOf, namesValue, paramName, taskNames, valueKind, type FixedParam } from './value-kinds';
import { planPhrasings } from './phrasing-template';
import { TEMPLATE } from './refs';
import { wordedConflicts } from './worded-values';
import { embeddedConflicts } from './embedded-values';
import { numbersNowhereTaken, paramWords } from './unread-numbers';

export { valueKind } from './value-kinds';

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

/** A plan as the gate reads it. */
interface FixedValuePlan {
  intent: string;
  description?: string;
  examples?: string[];
  inputs_schema: Record<string, unknown>;
  nodes: ReadonlyArray<{ id: string; op?: string; params: Record<string, unknown> }>;
}

/** Every string and number in a JSON value with its path (`cc[1]`, `headers.to`). */
function scalarLeaves(value: unknown, path: string): Array<{ path: string; value: string | number }> {
  if (typeof value === 'string' || typeof value === 'number') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => scalarLeaves(item, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => scalarLeaves(item, path ? `${path}.${key}` : key));
  return [];
}

/** Most conflicts reported: one is enough to hold the plan, a few show the caller what is meant (a big plan repeats a param in every node). */
export const MAX_VALUE_CONFLICTS = 10;

/** The values `task` names that the plan would replace with its own (each fixed param once, at most MAX_VALUE_CONFLICTS). */
export function valueConflicts(plan: FixedValuePlan, task: string): ValueConflict[] {
  const fixed = plan.nodes.flatMap((node) =>
    scalarLeaves(node.params, '')
      .filter((leaf) => !String(leaf.value).includes('{{'))
      .map((leaf): FixedParam => ({ node: node.id, param: leaf.path, value: leaf.value })),
  );
  // The very words the plan was written or learned for ask for what it does.
  const said = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
  const phrasings = [plan.intent, ...planPhrasings(plan)];
  if (phrasings.some((phrasing) => said(phrasing) === said(task))) return [];
  const words = wordsOf(task);
  const read = readAllInputs(plan, words);
  const found = [...(fixed.length > 0 ? fixedConflicts(plan, fixed, task, words, read) : []), ...embeddedIn(plan, words, read)];
  if (found.length === 0) {
    // No param holds it, but the wording says which job the plan does: "the weekly sales report".
    const worded = wordedConflicts(phrasings, words, inputKinds(plan));
    found.push(...worded.map((w) => ({ task: w.task, node: '', param: '', plan: w.plan })), ...unreachableMail(plan, words), ...unreadNumbers(plan, fixed, words, read));
  }
  const seen = new Set<string>();
  return found.filter((c) => !seen.has(`${c.node}\u0000${c.param}`) && seen.add(`${c.node}\u0000${c.param}`)).slice(0, MAX_VALUE_CONFLICTS);
}

/** The readings of fixed params (see the top of this file). */
function fixedConflicts(plan: FixedValuePlan, fixed: readonly FixedParam[], task: string, words: Words, read: ReadonlyArray<string | number>): ValueConflict[] {
  const keyed = keyedConflicts(fixed, words, { own: ownWords(plan, fixed), read });
  return [...statedConflicts(plan, fixed, task), ...kindConflicts(plan, fixed, words, read), ...keyed.map((f) => ({ task: f.task, node: f.node, param: f.param, plan: String(f.value) }))];
}

/** Values inside longer params, their references aside (`… region = '{{inputs.region}}' AND week = '2025-W18'`): embedded-values.ts. */
function embeddedIn(plan: FixedValuePlan, words: Words, read: ReadonlyArray<string | number>): ValueConflict[] {
  const texts = plan.nodes.flatMap((node) =>
    scalarLeaves(node.params, '').flatMap((leaf) => (typeof leaf.value === 'string' ? [{ node: node.id, param: leaf.path, value: leaf.value.replace(TEMPLATE, ' ') }] : [])),
  );
  const inputShapes = new Set(Object.values((plan.inputs_schema.properties ?? {}) as Record<string, { examples?: unknown }>).flatMap((p) => scalarExamples(p).map((e) => valueShape(String(e)))));
  return embeddedConflicts(texts, words, read, inputShapes).map((f) => ({ task: f.task, node: f.node, param: f.param, plan: f.embedded }));
}

/** The kinds of value (valueKind) the plan's inputs have examples of. */
const inputKinds = (plan: FixedValuePlan) =>
  new Set(Object.values((plan.inputs_schema.properties ?? {}) as Record<string, { examples?: unknown }>).flatMap((p) => scalarExamples(p).flatMap((e) => valueKind(String(e)) ?? [])));

/** Marks the fixed values posed as inputs, apart from the plan's own input names. */
const FIXED = '\u0000fixed:';

/**
 * Fixed values the plan's phrasings state, read off the task as defaulted inputs are: each poses
 * as an input defaulting to its value, beside the plan's own inputs (whose values are theirs).
 */
function statedConflicts(plan: FixedValuePlan, fixed: readonly FixedParam[], task: string): ValueConflict[] {
  // The intent too: a learned plan's is the task it was first learned for.
  const phrasings = [...new Set([plan.intent, ...planPhrasings(plan)])].slice(0, MAX_PHRASINGS);
  const phrased = phrasings.map(phrasingWords);
  // The verb its phrasings lead with is the action gate's to compare, synonyms and all ("flush" for "purge").
  const verbs = new Set(phrasings.flatMap((phrasing) => leadingAction(phrasing)?.word ?? []));
  const statedValues = new Set(
    [...new Set(fixed.map((f) => f.value))].filter((value) => !verbs.has(String(value).toLowerCase()) && phrased.some((words) => withoutValues(words, [value]).removed > 0)),
  );
  const stated = fixed.filter((f) => statedValues.has(f.value));
  if (stated.length === 0) return [];
  const schema = plan.inputs_schema;
  const posed = Object.fromEntries(
    stated.map((f, i) => [`${FIXED}${i}`, { type: typeof f.value === 'number' ? 'number' : 'string', examples: [f.value], default: f.value }]),
  );
  const properties = { ...((schema.properties ?? {}) as Record<string, unknown>), ...posed };
  return overriddenDefaults({ ...schema, properties }, task, {}, phrasings).flatMap(({ name, named }) => {
    if (!name.startsWith(FIXED)) return [];
    const f = stated[Number(name.slice(FIXED.length))]!;
    return couldBe(String(named), f.value) ? [{ task: String(named), node: f.node, param: f.param, plan: String(f.value) }] : [];
  });
}

/**
 * Whether words read where a fixed value stood could be another value for it: not a part of it
 * ("the Translations folder" for `Translations/ES`, "the refunds ledger" for `refunds-2024`), and
 * with a digit where the value is a number or a version ("the firmware update" is no `4.2.1`).
 */
function couldBe(named: string, value: string | number): boolean {
  const parts = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const own = new Set(parts(String(value)));
  if (parts(named).every((part) => own.has(part))) return false;
  return !/^[\d\s.,:/-]+$/.test(String(value)) || /\d/.test(named);
}

/** Words naming where something goes or whom it reaches: "report to …", "cc …", "upload it into …". */
const DESTINATION_WORDS: ReadonlySet<string> = new Set(['to', 'into', 'onto', 'under', 'cc', 'bcc', 'notify', 'email', 'e-mail', 'mail', 'tell', 'ping', 'alert']);

const ADDRESS_KINDS: ReadonlySet<string> = new Set(['e-mail', 'url']);

const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);

/**
 * A task word of a telling kind (valueKind) that no input takes (none reads it off the task, and
 * none has examples of the kind or is a string without examples, which could take anything),
 * beside a fixed param of that kind whose value the task does not name. An address counts only
 * named as a destination (after a DESTINATION_WORDS word or the param's own name), and a member
 * of a class with lead words only after one ("deploy to prod", not "the dev team").
 */
function kindConflicts(plan: FixedValuePlan, fixed: readonly FixedParam[], words: Words, read: ReadonlyArray<string | number>): ValueConflict[] {
  if (takesAnything(plan)) return [];
  const kinded = fixed.flatMap((f) => {
    const kind = typeof f.value === 'string' ? valueKind(f.value) : undefined;
    return kind ? [{ ...f, kind }] : [];
  });
  if (kinded.length === 0) return [];
  const kinds = inputKinds(plan);
  const namesFixed = namesAnyOf(fixed.map((f) => f.value));
  const named = uniqueWords(words).filter((word) => {
    const kind = valueKind(word, true);
    return kind !== undefined && !kinds.has(kind) && !read.some((value) => namesValue(word, value)) && !namesFixed(word);
  });
  const before = (i: number) => words.lower[ARTICLES.has(words.lower[i - 1] ?? '') ? i - 2 : i - 1] ?? '';
  // Words in an aside ("(raised in #billing)") are never the value asked for.
  const aside = asides(words);
  const placed = (word: string, kind: string, param: string) => {
    const leads = ADDRESS_KINDS.has(kind) ? new Set([...DESTINATION_WORDS, paramName(param).toLowerCase()]) : regionOfPlace(word) ? PLACE_LEAD_WORDS : classLeadWords(kind);
    const at = words.at.get(word)!.filter((i) => !aside.has(i));
    return at.length > 0 && (!leads || at.some((i) => leads.has(ADDRESS_KINDS.has(kind) ? (words.lower[i - 1] ?? '') : before(i))));
  };
  return named.flatMap((word) => {
    const kind = valueKind(word, true);
    return kinded
      .filter((f) => f.kind === kind && !taskNames(words, f.value) && placed(word, f.kind, f.param))
      .map((f) => ({ task: word, node: f.node, param: f.param, plan: String(f.value) }));
  });
}

/**
 * Positions of the task's words in parentheses of two or more words ("(raised in #billing)"). One
 * value alone in them restates what it follows ("the staging cluster (https://es-staging…)").
 */
function asides(words: Words): Set<number> {
  const inside = new Set<number>();
  let from = -1;
  words.raw.forEach((raw, i) => {
    if (raw.startsWith('(')) from = i;
    if (from >= 0 && /\)[,.;:!?]*$/.test(raw)) {
      for (let j = from; i > from && j <= i; j++) inside.add(j);
      from = -1;
    }
  });
  return inside;
}

/** Whether an input of the plan is a string without examples, which could take any value. */
function takesAnything(plan: FixedValuePlan): boolean {
  const properties = Object.values((plan.inputs_schema.properties ?? {}) as Record<string, { type?: unknown; examples?: unknown }>);
  return properties.some((p) => (p.type === undefined || p.type === 'string') && !scalarExamples(p).some((e) => typeof e === 'string'));
}


/**
 * An e-mail address the task sends something to ("… to cfo@corp.example") where the plan has
 * none, in no param and no input's examples: it cannot send there (it posts to a chat channel),
 * whatever its inputs. A URL is left alone: tasks cite links ("seen in alert https://…") as often
 * as they send to them.
 */
function unreachableMail(plan: FixedValuePlan, words: Words): ValueConflict[] {
  if (takesAnything(plan)) return [];
  const properties = Object.values((plan.inputs_schema.properties ?? {}) as Record<string, { examples?: unknown }>);
  const texts = [...plan.nodes.flatMap((node) => scalarLeaves(node.params, '').map((leaf) => String(leaf.value))), ...properties.flatMap((p) => scalarExamples(p).map(String))];
  // An address whole or in part (`{{inputs.to}}@corp.example`).
  const mails = texts.some((text) => text.includes('@'));
  return uniqueWords(words).flatMap((word) => {
    const kind = valueKind(word, true);
    const sent = words.at.get(word)!.some((i) => DESTINATION_WORDS.has(words.lower[i - 1] ?? '') && sendsInClause(words, i));
    return kind === 'e-mail' && !mails && sent ? [{ task: word, node: '', param: '', plan: '' }] : [];
  });
}

/**
 * A number the task gives for something the plan does but has nowhere to take (unread-numbers.ts):
 * unless an input takes whole numbers or anything at all.
 */
function unreadNumbers(plan: FixedValuePlan, fixed: readonly FixedParam[], words: Words, read: ReadonlyArray<string | number>): ValueConflict[] {
  // An input that takes numbers may take this one too, worded otherwise than its phrasings ("amount 60").
  const numberInput = Object.values((plan.inputs_schema.properties ?? {}) as Record<string, { examples?: unknown }>).some((p) =>
    scalarExamples(p).some((e) => /^\d+$/.test(String(e))),
  );
  if (numberInput || takesAnything(plan)) return [];
  const held = new Set<string>([
    ...read.map(String),
    ...fixed.flatMap((f) => String(f.value).match(/\d+/g) ?? []),
    ...[plan.intent, ...planPhrasings(plan)].flatMap((text) => text.match(/\d+/g) ?? []),
  ]);
  const params = plan.nodes.flatMap((node) => scalarLeaves(node.params, ''));
  return numbersNowhereTaken(words, held, paramWords(params)).map((task) => ({ task, node: '', param: '', plan: '' }));
}

/** Verbs that send something to an address. */
const SEND_VERBS: ReadonlySet<string> = new Set(['email', 'e-mail', 'mail', 'send', 'forward', 'notify', 'cc', 'bcc', 'share', 'deliver']);

/** Whether the clause holding word `at` sends something ("email the report to …"), not "questions go to …". */
function sendsInClause(words: Words, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    if (SEND_VERBS.has(words.lower[i]!)) return true;
    if (i < at - 1 && /[,.;:!?]$/.test(words.raw[i]!)) return false;
  }
  return false;
}

/** Values the plan's inputs, required or defaulted, read off the task. */
function readAllInputs(plan: FixedValuePlan, words: Words): Array<string | number> {
  const phrasings = planPhrasings(plan);
  return (['required', 'defaulted'] as const).flatMap((which) => Object.values(readInputs(inputReader(plan.inputs_schema, phrasings, which), words, {})));
}

/** The words of the plan's own phrasings, ops, input names and fixed params' names, in lower case: its wording, never another value. */
function ownWords(plan: FixedValuePlan, fixed: readonly FixedParam[]): Set<string> {
  const texts = [plan.intent, ...planPhrasings(plan), ...plan.nodes.map((n) => n.op ?? ''), ...Object.keys((plan.inputs_schema.properties ?? {}) as object)];
  return new Set([...texts.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)), ...fixed.flatMap((f) => keyWords(f.param))].filter(Boolean));
}

const uniqueWords = (words: Words) => [...new Set(words.bare.filter(Boolean))];

/** Conflicts in words, for messages: the values asked for and those the plan keeps. */
export function describeValueConflicts(conflicts: readonly ValueConflict[]): string {
  const each = conflicts.map((c) => {
    if (c.node) return `"${c.task}" where the best match always uses "${c.plan}" (node ${c.node}, param ${c.param})`;
    if (c.plan) return `"${c.task}" where the best match is worded for "${c.plan}"`;
    return /^\d+$/.test(c.task) ? c.task : `"${c.task}" where the best match has no such address to send to`;
  });
  return `the task names ${each.join(' and ')}, and the plan takes no input for ${conflicts.length > 1 ? 'them' : 'it'}`;
}
