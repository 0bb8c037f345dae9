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

/**
 * An e-mail address's or URL's shape with the punctuation inside its names folded
 * (`eng-all@example.com` and `first.last@example.org` → `w@w`): addresses differ there, not in
 * kind. Undefined for anything else.
 */
export function addressShape(value: string): string | undefined {
  const shape = value.replace(/[\p{L}\p{N}_.+-]+/gu, 'w');
  return /^w@w$|^w:\/\/w/.test(shape) ? `address ${shape}` : undefined;
}

/** Shapes as plain as a word (`main`, `Acme`) would match half the task: not suggested. */
export function distinctive(shape: string): boolean {
  return !/^(A|a|Aa|9)$/.test(shape);
}

const OPENING = /^["'`(<[{“‘]+/;
const CLOSING = /["'`)>\]},.;:!?”’]+$/;
const QUOTE_OPEN = /^["'`“‘]/;
const QUOTE_CLOSE = /["'`”’][,.;:!?)]*$/;
const SENTENCE_END = /[.;!?]["'`)”’]*$/;
const strip = (word: string) => word.replace(OPENING, '').replace(CLOSING, '');
/** Neighbours this common say nothing about where a value stands. */
export const WEAK_NEIGHBOURS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'and', 'or', 'to', 'of', 'in', 'on', 'for', 'with', 'is', 'it', 'my', 'me', 'please', 'this', 'that']);
/** Common words that still say what follows is a value when it ends the text ("deploy to staging"), unlike "the". */
const PREPOSITIONS: ReadonlySet<string> = new Set(['to', 'of', 'in', 'on', 'for', 'with', 'into', 'as', 'at', 'via']);
/** Phrasings read, and words read of each: enough for task texts, bounded for any plan. */
export const MAX_PHRASINGS = 20;
const MAX_PHRASING_WORDS = 80;
/** Longest value, in words, read off between two neighbours. */
const MAX_SPAN_WORDS = 6;

/** Words making one quotation: a quote opens the first, closes the last, and none is inside. */
function quotedSpan(span: string[]): boolean {
  const text = span.join(' ');
  return QUOTE_OPEN.test(text) && QUOTE_CLOSE.test(text) && !/["`“”]/.test(text.replace(QUOTE_OPEN, '').replace(QUOTE_CLOSE, ''));
}

/** A text's words: as written, without edge punctuation, in lower case, and where each stands. */
export interface Words {
  raw: string[];
  bare: string[];
  lower: string[];
  /** Positions of each bare word. */
  at: Map<string, number[]>;
  /** Positions of each lower-case word. */
  atLower: Map<string, number[]>;
}

function positions(words: string[]): Map<string, number[]> {
  const at = new Map<string, number[]>();
  words.forEach((word, i) => (at.get(word) ?? at.set(word, []).get(word)!).push(i));
  return at;
}

/** A possessive ending (`dana's`, `Priya’s,`): the name is a word of its own, whoever it is. */
const POSSESSIVE = /^(.+?)(['’]s[,.;:!?)]*)$/;

/** A text's words, ready to be read by position. */
export function wordsOf(text: string): Words {
  const raw = text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word) => {
      const possessive = POSSESSIVE.exec(word);
      // Either apostrophe: a stored `dana’s` and a typed `priya's` end alike.
      return possessive ? [possessive[1]!, possessive[2]!.replace('’', "'")] : [word];
    });
  const bare = raw.map(strip);
  const lower = bare.map((w) => w.toLowerCase());
  return { raw, bare, lower, at: positions(bare), atLower: positions(lower) };
}

/** A stored phrasing's words, its first MAX_PHRASING_WORDS only: a plan's text bounds the work. */
export const phrasingWords = (phrasing: string): Words => wordsOf(phrasing.split(/\s+/).slice(0, MAX_PHRASING_WORDS).join(' '));

/** Where a value's words stand in a text, compared without edge punctuation: each start, and how many words. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

function occurrences(words: Words, value: string | number): { starts: number[]; length: number } {
  // A number stands however a text writes it: 34.9 as "34.90", 12.5 as "12.50".
  if (typeof value === 'number') return { starts: words.bare.flatMap((word, i) => (DECIMAL.test(word) && Number(word) === value ? [i] : [])), length: 1 };
  const target = String(value).split(/\s+/).map(strip).filter(Boolean);
  if (target.length === 0) return { starts: [], length: 0 };
  const starts = (words.at.get(target[0]!) ?? []).filter((i) => target.every((word, k) => words.bare[i + k] === word));
  return { starts, length: target.length };
}

/** An input's example values that can stand in a text. */
export function scalarExamples(property: { examples?: unknown } | undefined): Array<string | number> {
  return Array.isArray(property?.examples) ? property.examples.filter((e): e is string | number => typeof e === 'string' || typeof e === 'number') : [];
}

/** Where an example value stood in a phrasing: its neighbouring words (lower case) and quoting. */
interface Anchor {
  before?: string;
  after?: string;
  quoted: boolean;
  words: number;
}

function anchorsOf(value: string | number, phrasing: Words): Anchor[] {
  const { starts, length } = occurrences(phrasing, value);
  return starts.map((i) => ({
    before: phrasing.lower[i - 1] || undefined,
    after: phrasing.lower[i + length] || undefined,
    quoted: quotedSpan(phrasing.raw.slice(i, i + length)),
    words: length,
  }));
}

/** The words of `task` standing where `anchor` stood: between the same neighbours, or quoted after the same word. */
function readAt(anchor: Anchor, task: Words): string[] {
  const spans: Array<[number, number]> = [];
  const { before, after } = anchor;
  for (const i of before !== undefined ? (task.atLower.get(before) ?? []) : []) {
    for (let length = 1; length <= MAX_SPAN_WORDS && i + 1 + length <= task.raw.length; length++) {
      // A value never runs on past the end of a sentence ("… the May outage'. Update the category").
      if (length > 1 && SENTENCE_END.test(task.raw[i + length - 1]!)) break;
      const fits = anchor.quoted
        ? quotedSpan(task.raw.slice(i + 1, i + 1 + length))
        : after !== undefined
          ? task.lower[i + 1 + length] === after
          : // The value ended the phrasing: as many words after the same telling word, or ending the task after the same preposition ("… to staging" → "… to production").
            length === anchor.words && (!WEAK_NEIGHBOURS.has(before!) || (PREPOSITIONS.has(before!) && i + 1 + length === task.raw.length));
      if (fits) spans.push([i + 1, i + 1 + length]);
    }
  }
  // One neighbour only, after the value (it began the phrasing): a telling one, and as many words.
  if (before === undefined && after !== undefined && !WEAK_NEIGHBOURS.has(after)) {
    for (const j of task.atLower.get(after) ?? []) if (j - anchor.words >= 0) spans.push([j - anchor.words, j]);
  }
  return spans.map(([from, to]) => strip(task.raw.slice(from, to).join(' '))).filter(Boolean);
}

export interface InputProperty {
  type?: unknown;
  examples?: unknown;
  default?: unknown;
  enum?: unknown;
}

/** A word or words of the task as a value of the input's type; undefined when it is not one. */
function typed(text: string, type: unknown): string | number | undefined {
  if (type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : undefined;
  if (type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
  return type === undefined || type === 'string' ? text : undefined;
}

/** How one input's values are read off a task: by shape, and at the positions its examples held. */
interface InputReading {
  name: string;
  type: unknown;
  /** Shapes of its string examples, when distinctive enough to read by. */
  shapes?: Set<string>;
  anchors: Anchor[];
  /**
   * Reading a defaulted input: the words its examples followed in the phrasings (a word of the
   * shape counts only after one of them: "from noreply@…" is not the `to` of "to team@…").
   */
  after?: Set<string>;
  /** Its plain examples and enum values, which count where the task says one ("… to production", "… 75.25 EUR"). */
  words?: Set<string>;
  /** What its string examples are (sigil): a value of another such kind is never this input's ("to cfo@…" is no `#channel`). */
  sigils?: Set<string | undefined>;
}

/** Whether a value is an e-mail address, a URL or a chat channel (`#ops`); undefined for anything else. */
export function sigil(value: string): string | undefined {
  const address = addressShape(value);
  if (address) return address.includes('://') ? 'url' : 'e-mail';
  return /^#\p{L}/u.test(value) ? 'channel' : undefined;
}

/** A plan's inputs, ready to be read off any number of tasks (what depends on the plan only). */
export interface InputReader {
  inputs: InputReading[];
}

/**
 * Prepares the reading of a plan's required inputs (or, with `defaulted`, of those with a default)
 * from its `phrasings` (its description and examples).
 */
export function inputReader(schema: Record<string, unknown>, phrasings: readonly string[], which: 'required' | 'defaulted' = 'required'): InputReader {
  const properties = (schema.properties ?? {}) as Record<string, InputProperty>;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  const names = which === 'required' ? required : Object.keys(properties).filter((name) => properties[name]?.default !== undefined);
  const prepared = phrasings.slice(0, MAX_PHRASINGS).map(phrasingWords);
  const inputs: InputReading[] = [];
  for (const name of names) {
    const property = properties[name];
    if (!property) continue;
    const examples = scalarExamples(property);
    const strings = examples.filter((e): e is string => typeof e === 'string');
    const shapes = new Set([...strings.map(valueShape), ...strings.flatMap((e) => addressShape(e) ?? [])]);
    const byShape = property.type !== 'integer' && property.type !== 'number' && shapes.size > 0 && [...shapes].every(distinctive);
    // Many phrasings hold an example the same way: the task is read once per distinct position.
    const anchors = new Map<string, Anchor>();
    for (const example of examples) {
      for (const phrasing of prepared) for (const anchor of anchorsOf(example, phrasing)) anchors.set(JSON.stringify(anchor), anchor);
    }
    const sigils = strings.length > 0 ? new Set(strings.map(sigil)) : undefined;
    const reading: InputReading = { name, type: property.type, shapes: byShape ? shapes : undefined, anchors: [...anchors.values()], sigils };
    if (which === 'defaulted') {
      const before = [...anchors.values()].flatMap((a) => a.before ?? []);
      if (before.length > 0) reading.after = new Set(before);
    }
    // A plain example or enum value the task says is that value ("… amount 75.25 EUR", "… to
    // production"); value-shaped ones are read by shape, where two in the task are a coin toss.
    const enumValues = Array.isArray(property.enum) ? property.enum : [];
    const plain = (v: unknown): v is string => typeof v === 'string' && !/\s/.test(v) && (which === 'defaulted' || !distinctive(valueShape(v)));
    reading.words = new Set([...strings, ...enumValues].filter(plain).map((v) => v.toLowerCase()));
    inputs.push(reading);
  }
  return { inputs };
}

/** Words that stand where a value stood only because the task is worded differently ("set the tier to gold", "restart now"). */
const FILLER_WORDS: ReadonlySet<string> = new Set([
  ...WEAK_NEIGHBOURS,
  ...['now', 'then', 'today', 'tonight', 'again', 'instead', 'too', 'also', 'asap', 'here', 'there', 'everything', 'everyone', 'all', 'them', 'they', 'us', 'you', 'him', 'her', 'someone', 'something', 'anything', 'thanks'],
  // "as usual", "as discussed", "like before": the value the caller means is the one it had.
  ...['usual', 'always', 'before', 'discussed', 'agreed', 'planned', 'expected', 'normal', 'normally', 'requested', 'previously', 'earlier', 'last', 'time'],
]);
/** A filler word or words alone, unquoted, are never a value. */
export const fillerOnly = (value: string | number) => typeof value === 'string' && value.toLowerCase().split(' ').every((word) => FILLER_WORDS.has(word));

/**
 * The value `task` names for one input, if one: where an example stood in a phrasing when that
 * settles it (two addresses in the task, one after the word the example followed), else the one
 * word shaped like the examples or standing where one stood.
 */
function namedValue(input: InputReading, task: Words): string | number | undefined {
  const shaped = new Set<string | number>();
  const placed = new Set<string | number>();
  const add = (found: Set<string | number>, text: string, quoted = false) => {
    const value = typed(text, input.type);
    if (value !== undefined && (quoted || !fillerOnly(value)) && (!input.sigils || input.sigils.has(sigil(String(value))))) found.add(value);
  };
  // After a word as common as "the", only a shape with a digit or an address is telling: "the on-call" is no `platform-primary`.
  const telling = (word: string) => /\d/.test(word) || addressShape(word) !== undefined;
  const follows = (word: string) =>
    !input.after ||
    task.at.get(word)!.some((i) => {
      const previous = task.lower[i - 1] ?? '';
      return input.after!.has(previous) && (!WEAK_NEIGHBOURS.has(previous) || telling(word));
    });
  if (input.shapes) {
    for (const word of task.at.keys()) if ((input.shapes.has(valueShape(word)) || input.shapes.has(addressShape(word) ?? '')) && follows(word)) add(shaped, word);
  }
  if (input.words) for (const word of task.at.keys()) if (input.words.has(word.toLowerCase())) add(placed, word);
  for (const anchor of input.anchors) for (const text of readAt(anchor, task)) add(placed, text, anchor.quoted);
  // Words between an example's neighbours holding one word of the examples' shape are that word: "in us-east-2 up to" → `us-east-2`.
  for (const text of [...placed]) {
    const inside = [...shaped].filter((word) => text !== word && String(text).split(' ').map(strip).includes(String(word)));
    if (inside.length === 1) {
      placed.delete(text);
      placed.add(inside[0]!);
    }
  }
  const all = new Set([...placed, ...shaped]);
  const [value] = placed.size === 1 ? placed : all;
  return placed.size === 1 || all.size === 1 ? value : undefined;
}

/**
 * For each required input missing from `given`, the one value `task` names for it; an input with
 * none or several, or a value two inputs would share, gets no suggestion.
 */
export function readInputs(reader: InputReader, task: Words, given: Record<string, unknown>): Record<string, string | number> {
  const found = new Map<string, string | number>();
  for (const input of reader.inputs) {
    if (input.name in given) continue;
    const value = namedValue(input, task);
    if (value !== undefined) found.set(input.name, value);
  }
  const claimed = [...found.values()];
  return Object.fromEntries([...found].filter(([, value]) => claimed.indexOf(value) === claimed.lastIndexOf(value)));
}

/** A value as compared with a default: addresses and names ignore case and a trailing slash. */
export const sameValue = (value: unknown) => (typeof value === 'string' ? value.toLowerCase().replace(/\/+$/, '') : JSON.stringify(value));


/** The text's words without every occurrence of the values (compared without edge punctuation), joined by spaces. */
export function withoutValues(words: Words, values: Iterable<string | number>): { text: string; removed: number } {
  const keep = words.raw.map(() => true);
  let removed = 0;
  for (const value of values) {
    const { starts, length } = occurrences(words, value);
    for (const i of starts) keep.fill(false, i, i + length);
    removed += starts.length;
  }
  return { text: words.raw.filter((_, i) => keep[i]).join(' '), removed };
}
