/**
 * Generalising a learned plan from its structural twins: it keeps as constants only the args they
 * agree on (anti-unification); every arg they disagree on becomes an input. Inputs taken from
 * one episode's task come first (task-inputs.ts).
 */
import type { PlanGraphPayload } from '../domain/records';
import { documentWords } from '../domain/plan-document';
import { inputRef, inputRefName, InputSet, isGenericKey, keyHint, middleHint } from './input-schema';
import { valueClass } from '../domain/value-classes';
import { canonicalJson } from '../domain/canonical-json';
import { TEMPLATE } from '../domain/refs';
import { isPlainObject, isTemplate, leaves, type JsonPath } from './json-leaves';
import { statedIn } from './stated-tokens';
import { differingMiddle, differingSpans, fitTemplate, isProse, joinedWords, MIN_SHARED_TEXT, templateSpans } from './text-differences';
import { differsFromFirst, knobs } from './knobs';
import { twinNodes, withPlanInputNames, withSameInputsJoined } from './twin-inputs';

/** Most task phrasings a plan keeps as `examples`. */
export const MAX_PLAN_EXAMPLES = 20;

type Params = Record<string, unknown>;

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * The least general plan covering `plan` and its structural twin (same structure key): params
 * both agree on stay; a literal that differs becomes `{{inputs.<name>}}` (one input per pair of
 * differing values), an input of `plan` collects the twin's value as an example, and references
 * to upstream outputs are kept; in a string holding references only the differing middle becomes
 * an input (see `unifyStrings`). Arrays of different lengths become an input unless they hold
 * references. Examples of both are merged.
 */
export function antiUnify(plan: PlanGraphPayload, original: PlanGraphPayload): PlanGraphPayload {
  const twin = withPlanInputNames(plan, original);
  const inputs = InputSet.from(plan.inputs_schema);
  const twinInputs = InputSet.from(twin.inputs_schema);
  // The tasks are the examples (a description without them is a sentence of op names).
  const examples = mergeExamples(plan.examples, twin.examples);
  const tasks = (examples ?? []).join('\n');
  const named = statedIn(tasks);
  const byPair = new Map<string, string>();
  /** Inputs standing where one twin read an upstream output: never given a literal default. */
  const replacedReference = new Set<string>();
  /** The twin's values for a param: its examples when it is an input, else the value (a literal scalar, or any literal with `whole`). */
  const observed = (value: unknown, whole = false): unknown[] => {
    const name = inputRefName(value);
    if (name) return [...twinInputs.examples(name)];
    return (whole ? !hasTemplate(value) : isScalar(value) && !isTemplate(value)) ? [value] : [];
  };
  /** What the twin passed where the plan reads one of its inputs already, by input. */
  const twinValues = new Map<string, unknown[]>();
  const pool = (name: string, values: readonly unknown[]) => {
    twinValues.set(name, [...(twinValues.get(name) ?? []), ...values.map((value) => inputs.asExample(name, value))]);
    inputs.addExamples(name, values);
  };
  /** Inputs an arg only one twin passed stands for, and how many such args each stands for. */
  const oneSidedUses = new Map<string, number>();
  /**
   * An arg only one twin passed (`cc` in one `send_email`, not in the other). The twin's becomes
   * an optional input: left out by the caller, it leaves the arg out (an unresolved reference
   * gives no value), as in the plan. The plan's input becomes optional; the plan's literal (no
   * task named it, or it would be an input) becomes an input defaulting to it, so a request that
   * ran before runs alike. Args holding references to upstream outputs stay as the plan has them.
   */
  const oneSided = (mine: unknown, twinValues: unknown[], path: JsonPath): unknown => {
    const existing = inputRefName(mine);
    if (mine !== undefined && !existing && hasTemplate(mine)) return mine;
    if (mine !== undefined && !existing) {
      const name = inputs.add(keyHint(path), [mine]);
      inputs.setDefault(name, mine);
      return inputRef(name);
    }
    const name = existing ?? inputs.add(keyHint(path), twinValues);
    oneSidedUses.set(name, (oneSidedUses.get(name) ?? 0) + 1);
    return inputRef(name);
  };

  const unify = (mine: unknown, theirs: unknown, path: JsonPath): unknown => {
    if (theirs === undefined) return mine;
    // Before the equality test: two inputs of the same name still pool their examples.
    const mineInput = inputRefName(mine);
    if (mineInput) {
      pool(mineInput, observed(theirs));
      return mine;
    }
    if (isScalar(mine) && mine === theirs) {
      // The same text with the same inputs inside (`Digest for {{inputs.msg}}: ok`): each pools the twin's examples.
      if (typeof mine === 'string') for (const name of inputsIn(mine)) pool(name, twinInputs.examples(name));
      return mine;
    }
    if (typeof mine === 'string' && typeof theirs === 'string' && (isTemplate(mine) || isTemplate(theirs))) {
      return unifyStrings(mine, theirs, path);
    }
    if (isTemplate(mine)) return mine;
    if (typeof mine === 'string' && typeof theirs === 'string') {
      // Two texts differing in a word or two ("Digest for billing: ok", "Digest for payments: ok"),
      // or two values differing in what their tasks name (`?city=London&…`, `?city=Paris&…`): the
      // text they share stays, and only the differing middle becomes an input.
      const [start, mineEnd, theirsEnd] = differingMiddle(mine, theirs);
      const [mid, twinMid] = [mine.slice(start, mineEnd), theirs.slice(start, theirsEnd)];
      const shared = mine.slice(0, start) + mine.slice(mineEnd);
      const differsInWords = isProse(mine) && isProse(theirs) && shared.trim().length >= MIN_SHARED_TEXT;
      if (mid && twinMid && differsInWords) return withMiddleInputs(mine, theirs, path);
      if (mid && twinMid && shared && named(mid) && named(twinMid)) return withMiddleInput(mine, start, mineEnd, twinMid, path);
    }
    if (isScalar(mine)) {
      const values = observed(theirs);
      if (values.length === 0 && !inputRefName(theirs)) return mine;
      return inputRef(newInput(keyHint(path), [mine, ...values], [mine, theirs]));
    }
    if (Array.isArray(mine)) {
      if (!Array.isArray(theirs)) return mine;
      if (theirs.length !== mine.length) return hasTemplate(mine) || hasTemplate(theirs) ? mine : inputRef(newInput(keyHint(path), [mine, theirs]));
      return mine.map((item, i) => unify(item, theirs[i], [...path, i]));
    }
    if (isPlainObject(mine) && isPlainObject(theirs)) {
      const both = Object.entries(mine).map(([key, value]) => [key, key in theirs ? unify(value, theirs[key], [...path, key]) : oneSided(value, [], [...path, key])]);
      // A twin-only arg holding references or interpolated text is dropped: it reads the twin's nodes and inputs.
      const theirsOnly = Object.entries(theirs).filter(([key, value]) => !(key in mine) && (inputRefName(value) || !hasTemplate(value)));
      return Object.fromEntries([...both, ...theirsOnly.map(([key, value]) => [key, oneSided(undefined, observed(value, true), [...path, key])])]);
    }
    return mine;
  };

  /**
   * `mine` with its differing middle (`twinMid` in the twin) an input, named for where it stands;
   * a middle of plain words joined alike on both sides (`ledger.staging`, `checkout.production`)
   * an input for each differing word, the same pair anywhere being one input.
   */
  const withMiddleInput = (mine: string, start: number, end: number, twinMid: string, path: JsonPath): string => {
    const { hint, pattern } = middleHint(mine.slice(0, start), mine.slice(end), keyHint(path));
    const parts = joinedWords(mine.slice(start, end), twinMid);
    if (parts) {
      const middle = parts.map(([part, twinPart]) => (part === twinPart ? part : inputRef(newInput(hint, [part, twinPart])))).join('');
      return mine.slice(0, start) + middle + mine.slice(end);
    }
    const name = newInput(hint, [mine.slice(start, end), twinMid]);
    if (pattern) inputs.setPattern(name, pattern);
    return mine.slice(0, start) + inputRef(name) + mine.slice(end);
  };

  /** `mine` with each span where it differs from the twin's text an input (differingSpans), right to left. */
  const withMiddleInputs = (mine: string, theirs: string, path: JsonPath) => {
    const spans = differingSpans(mine, theirs);
    const [[start, end, twinStart, twinEnd]] = spans as [[number, number, number, number]];
    if (spans.length === 1 || spans.some(([s1, e1, s2, e2]) => s1 === e1 || s2 === e2)) return withMiddleInput(mine, start, end, theirs.slice(twinStart, twinEnd), path);
    return spans.reduceRight((text, [s1, e1, s2, e2]) => withMiddleInput(text, s1, e1, theirs.slice(s2, e2), path), mine);
  };

  /**
   * An input for a pair of differing values (the same pair anywhere is one input). Values of one
   * closed class (`staging`, `production`) name it after the class when its arg key names nothing.
   */
  const newInput = (hint: string, values: readonly unknown[], pairKey = values): string => {
    const pair = JSON.stringify(pairKey);
    const classes = new Set(values.map((v) => (typeof v === 'string' ? valueClass(v)?.kind : undefined)));
    const [kind] = classes;
    const named = isGenericKey(hint) && classes.size === 1 && kind ? kind.replaceAll(' ', '_') : hint;
    const name = byPair.get(pair) ?? inputs.add(named, values);
    byPair.set(pair, name);
    return name;
  };

  /**
   * Two differing strings, at least one holding a template: their common start and end stay,
   * and the differing middle (never cutting a template, a word or a number) becomes an input
   * interpolated in place, or collects the twin's text when it is an input already. A middle
   * that holds a reference on one side only makes the whole param an input; middles that
   * differ in references alone keep the plan's.
   */
  const unifyStrings = (mine: string, theirs: string, path: JsonPath): string => {
    // An input both texts read where they agree (`?branch={{inputs.branch}}` beside another
    // project) pools the twin's examples, as in texts equal throughout.
    const theirInputs = new Set(inputsIn(theirs));
    for (const name of new Set(inputsIn(mine))) if (theirInputs.has(name)) pool(name, twinInputs.examples(name));
    // The twin's text fits the plan's (`deployment/{{inputs.service}} -n {{inputs.env}}` beside
    // `deployment/inventory -n staging`): each input collects what the twin has where it stands.
    const fitted = fitTemplate(mine, theirs);
    if (fitted) {
      for (const [name, value] of fitted) {
        const twinInput = inputRefName(value);
        if (twinInput) pool(name, twinInputs.examples(twinInput));
        else if (!isTemplate(value)) pool(name, [value]);
      }
      return mine;
    }
    // Texts alike in their templates that differ in several plain spans (`deployment/ledger …:{{inputs.version}} -n staging`
    // beside `deployment/checkout …:{{inputs.version}} -n production`): each span an input, as in texts without templates.
    const spans = differingSpans(mine, theirs);
    const plain = (text: string, from: number, to: number) => from < to && templateSpans(text).every(([start, end]) => to <= start || end <= from);
    if (spans.length > 1 && spans.every(([s1, e1, s2, e2]) => plain(mine, s1, e1) && plain(theirs, s2, e2))) {
      return spans.reduceRight((text, [s1, e1, s2, e2]) => withMiddleInput(text, s1, e1, theirs.slice(s2, e2), path), mine);
    }
    const [start, mineEnd, theirsEnd] = differingMiddle(mine, theirs);
    const mid = mine.slice(start, mineEnd);
    const twinMid = theirs.slice(start, theirsEnd);
    const midInput = inputRefName(mid);
    if (!isTemplate(twinMid)) {
      if (midInput && inputs.has(midInput)) {
        pool(midInput, [twinMid]);
        return mine;
      }
      if (!isTemplate(mid)) return withMiddleInput(mine, start, mineEnd, twinMid, path);
    } else if (!isTemplate(mid) && inputRefName(twinMid)) {
      // The twin took from its task what the plan has as text (`desk=gowbat` beside `desk={{inputs.desk}}`): an input here too, by the twin's name.
      const twinInput = inputRefName(twinMid)!;
      return mine.slice(0, start) + inputRef(newInput(twinInput, [mid, ...twinInputs.examples(twinInput)], [mid, twinMid])) + mine.slice(mineEnd);
    } else if (isTemplate(mid) && withoutTemplates(mid) === withoutTemplates(twinMid)) {
      const twinInput = inputRefName(twinMid);
      if (midInput && inputs.has(midInput) && twinInput) pool(midInput, twinInputs.examples(twinInput));
      // The twin's task stated what the plan read off an earlier result (a partial refund's amount
      // beside the looked-up price): run as read, a task stating another would be done otherwise.
      if (!midInput && twinInput && mid === mine && twinMid === theirs) {
        const name = newInput(twinInput, twinInputs.examples(twinInput), [mine, theirs]);
        replacedReference.add(name);
        return inputRef(name);
      }
      return mine;
    }
    // Middles differing in words and the tasks' values, with no reference to an upstream output on
    // either side ("I approve the two new headcount." beside "We would need {{inputs.need}} payment
    // terms."): one input, its examples each written out with its own twin's values.
    const [mineText, twinText] = [withExamples(mid, inputs), withExamples(twinMid, twinInputs)];
    if (mineText !== twinText && !isTemplate(mineText) && !isTemplate(twinText)) {
      return withMiddleInput(mine.slice(0, start) + mineText + mine.slice(mineEnd), start, start + mineText.length, twinText, path);
    }
    const values = [...(isTemplate(mine) ? [] : [mine]), ...observed(theirs)];
    // No literal on either side to show a caller what to send: an input it could never fill. The plan's text stays.
    if (values.length === 0) return mine;
    const name = newInput(keyHint(path), values, [mine, theirs]);
    replacedReference.add(name);
    return inputRef(name);
  };

  const pairs = twinNodes(plan, twin);
  const nodes = plan.nodes.map((node) => ({ ...node, params: unify(node.params, pairs.get(node.id), []) as Params }));
  // Optional only when every use of the input is such an arg: a value also passed elsewhere is still needed there.
  for (const [name, uses] of oneSidedUses) if (uses === inputUses(nodes, name)) inputs.setOptional(name);
  const description = plan.description ?? twin.description;
  if (tasks.trim()) {
    const differing = new Set([...byPair.values(), ...[...twinValues].filter(([name, values]) => differsFromFirst(inputs, name, values)).map(([name]) => name)]);
    // A value of two or more words all of which a task says ("Li Wei design review" for "reply to Li Wei on the design review thread") is named too.
    const taskWords = new Set(documentWords(tasks).toLowerCase().split(' '));
    const worded = (value: unknown) => {
      const words = typeof value === 'string' ? documentWords(value).toLowerCase().split(' ').filter(Boolean) : [];
      return words.length >= 2 && words.every((word) => taskWords.has(word));
    };
    for (const name of knobs(inputs, differing, (value) => named(value) || worded(value))) if (!replacedReference.has(name)) inputs.setDefault(name, inputs.examples(name)[0]);
  }
  const joined = withSameInputsJoined(nodes, inputs);
  // An input a later twin's text replaced whole is read nowhere any more: a caller must not be asked for it.
  for (const name of inputs.names()) if (inputUses(joined, name) === 0) inputs.remove(name);
  return { ...plan, description, examples, nodes: joined, inputs_schema: inputs.toSchema() };
}

/** A text with each input it reads written out as that input's first example (unchanged where an input has none). */
function withExamples(text: string, inputs: InputSet): string {
  return text.replace(/\{\{\s*inputs\.([^{}\s]+)\s*\}\}/g, (ref, name: string) => {
    const [example] = inputs.examples(name);
    return example === undefined ? ref : typeof example === 'string' ? example : JSON.stringify(example);
  });
}

const withoutTemplates = (text: string) => text.replace(TEMPLATE, '');
/** The run inputs a string interpolates (`{{inputs.msg}}`), by name. */
const inputsIn = (text: string) => [...text.matchAll(TEMPLATE)].flatMap((m) => inputRefName(m[0]) ?? []);
const hasTemplate = (value: unknown) => leaves(value).some((l) => isTemplate(l.value));
/** How many param strings of `nodes` read the run input `name`. */
const inputUses = (nodes: PlanGraphPayload['nodes'], name: string) =>
  nodes.reduce((sum, node) => sum + leaves(node.params).filter((l) => typeof l.value === 'string' && inputsIn(l.value).includes(name)).length, 0);

/** Task phrasings of both, distinct, in order, at most MAX_PLAN_EXAMPLES; undefined when none. */
export function mergeExamples(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  const merged = [...new Set([...(a ?? []), ...(b ?? [])])].slice(0, MAX_PLAN_EXAMPLES);
  return merged.length > 0 ? merged : undefined;
}

/**
 * What a plan's generalisation consists of: its params, the names of its inputs, which are
 * required and which default to what. Two plans with the same one run alike; examples do not count.
 */
export function generalisationKey(plan: Pick<PlanGraphPayload, 'nodes' | 'inputs_schema'>): string {
  const { properties = {}, required = [] } = plan.inputs_schema as { properties?: Record<string, { default?: unknown } | undefined>; required?: string[] };
  const defaults = Object.keys(properties)
    .sort()
    .flatMap((name) => (properties[name]?.default === undefined ? [] : [[name, properties[name].default]]));
  return canonicalJson([plan.nodes.map((n) => [n.id, n.params]), Object.keys(properties).sort(), [...required].sort(), defaults]);
}
