/**
 * Inputs an agent left out but named in its own words. A learned plan's inputs carry the values
 * its episodes used as `examples`, and the plan keeps the tasks those episodes were given as its
 * phrasings. A value of the new task is found two ways: a word shaped like the examples (`T-102`
 * beside `T-100`, a URL beside URLs), or the words standing where an example stood in a stored
 * phrasing (between the same neighbours: `what pg vacuum does` → `what postgres vacuum does`;
 * quoted after the same word: `note "Vacuum basics"` → `note "Vacuum 2"`). It is offered back in
 * a 422 `invalid_inputs`, never used unasked: a guess must not run a plan.
 */

/** A value's shape: letters, digits and the punctuation between them (`T-102` → `A-9`). */
export function valueShape(value: string): string {
  return value.replace(/[A-Z]+/g, 'A').replace(/[a-z]+/g, 'a').replace(/[0-9]+/g, '9');
}

/** Shapes as plain as a word (`main`, `Acme`) would match half the task: not suggested. */
function distinctive(shape: string): boolean {
  return !/^(A|a|Aa|9)$/.test(shape);
}

const OPENING = /^["'`(<[{“‘]+/;
const CLOSING = /["'`)>\]},.;:!?”’]+$/;
const QUOTE_OPEN = /^["'`“‘]/;
const QUOTE_CLOSE = /["'`”’][,.;:!?)]*$/;
const strip = (word: string) => word.replace(OPENING, '').replace(CLOSING, '');
/** Neighbours this common say nothing about where a value stands. */
const WEAK_NEIGHBOURS = new Set(['a', 'an', 'the', 'and', 'or', 'to', 'of', 'in', 'on', 'for', 'with', 'is', 'it', 'my', 'me', 'please', 'this', 'that']);
/** Longest value, in words, read off between two neighbours. */
const MAX_SPAN_WORDS = 6;

/** Words making one quotation: a quote opens the first, closes the last, and none is inside. */
function quotedSpan(span: string[]): boolean {
  const text = span.join(' ');
  return QUOTE_OPEN.test(text) && QUOTE_CLOSE.test(text) && !/["`“”]/.test(text.replace(QUOTE_OPEN, '').replace(QUOTE_CLOSE, ''));
}

/** Where an example value stood in a phrasing: its neighbouring words (lower case) and quoting. */
interface Anchor {
  before?: string;
  after?: string;
  quoted: boolean;
  words: number;
}

function anchorsOf(value: string, phrasing: string): Anchor[] {
  const target = value.split(/\s+/).filter(Boolean);
  const tokens = phrasing.split(/\s+/).filter(Boolean);
  const anchors: Anchor[] = [];
  if (target.length === 0) return anchors;
  for (let i = 0; i + target.length <= tokens.length; i++) {
    const span = tokens.slice(i, i + target.length);
    const inner = span.map((t, k) => (k === 0 ? t.replace(OPENING, '') : t)).map((t, k) => (k === span.length - 1 ? t.replace(CLOSING, '') : t));
    if (inner.join(' ') !== target.join(' ')) continue;
    const before = i > 0 ? strip(tokens[i - 1]!).toLowerCase() : undefined;
    const after = i + target.length < tokens.length ? strip(tokens[i + target.length]!).toLowerCase() : undefined;
    anchors.push({ before: before || undefined, after: after || undefined, quoted: quotedSpan(span), words: target.length });
  }
  return anchors;
}

/** The words of `task` standing where `anchor` stood: between the same neighbours, or quoted after the same word. */
function readAt(anchor: Anchor, tokens: string[]): string[] {
  const found: string[] = [];
  const at = (i: number) => (i >= 0 && i < tokens.length ? strip(tokens[i]!).toLowerCase() : undefined);
  const strong = (word: string | undefined) => word !== undefined && !WEAK_NEIGHBOURS.has(word);
  for (let start = 0; start < tokens.length; start++) {
    for (let length = 1; length <= MAX_SPAN_WORDS && start + length <= tokens.length; length++) {
      const span = tokens.slice(start, start + length);
      const before = at(start - 1);
      const after = at(start + length);
      let fits: boolean;
      if (anchor.quoted) fits = quotedSpan(span) && before === anchor.before && anchor.before !== undefined;
      else if (anchor.before !== undefined && anchor.after !== undefined) fits = before === anchor.before && after === anchor.after;
      // One neighbour only (the value began or ended the phrasing): a telling one, and as many words.
      else fits = length === anchor.words && (anchor.before !== undefined ? before === anchor.before && strong(before) : after === anchor.after && strong(after));
      if (fits) found.push(strip(span.join(' ')));
    }
  }
  return found.filter(Boolean);
}

interface InputProperty {
  type?: unknown;
  examples?: unknown;
}

/** A word or words of the task as a value of the input's type; undefined when it is not one. */
function typed(text: string, type: unknown): string | number | undefined {
  if (type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : undefined;
  if (type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
  return type === undefined || type === 'string' ? text : undefined;
}

/** Each value `task` names for one input: by shape, and by where its examples stood in the phrasings. */
function candidates(property: InputProperty, task: string, phrasings: readonly string[]): Set<string | number> {
  const examples = Array.isArray(property.examples) ? property.examples.filter((e): e is string | number => typeof e === 'string' || typeof e === 'number') : [];
  const tokens = task.split(/\s+/).filter(Boolean);
  const found = new Set<string | number>();
  const add = (text: string) => {
    const value = typed(text, property.type);
    if (value !== undefined) found.add(value);
  };
  const shapes = new Set(examples.filter((e): e is string => typeof e === 'string').map(valueShape));
  if (property.type !== 'integer' && property.type !== 'number' && shapes.size > 0 && [...shapes].every(distinctive)) {
    for (const word of new Set(tokens.map(strip))) if (shapes.has(valueShape(word))) add(word);
  }
  for (const example of examples) {
    for (const phrasing of phrasings) for (const anchor of anchorsOf(String(example), phrasing)) readAt(anchor, tokens).forEach(add);
  }
  return found;
}

/**
 * For each required input missing from `given`, the one value `task` names for it; an input with
 * none or several, or a value two inputs would share, gets no suggestion. `phrasings` are the
 * tasks the plan was learned from (its description and examples).
 */
export function suggestInputs(schema: Record<string, unknown>, task: string, given: Record<string, unknown>, phrasings: readonly string[] = []): Record<string, string | number> {
  const properties = (schema.properties ?? {}) as Record<string, InputProperty>;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  const found = new Map<string, string | number>();
  for (const name of required) {
    const property = properties[name];
    if (name in given || !property) continue;
    const values = candidates(property, task, phrasings);
    if (values.size === 1) found.set(name, [...values][0]!);
  }
  const claimed = [...found.values()];
  return Object.fromEntries([...found].filter(([, value]) => claimed.indexOf(value) === claimed.lastIndexOf(value)));
}
