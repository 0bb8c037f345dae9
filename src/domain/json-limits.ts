/**
 * What untrusted JSON may hold before anything stores or executes it.
 *
 * Depth: recursive code (JSON.stringify, template resolution, Postgres' jsonb parser) overflows
 * its stack on a few thousand levels, which one megabyte of `[[[[…` easily reaches; values are
 * therefore measured here, without recursion, before anything recursive sees them.
 *
 * Text and numbers: Postgres cannot store a NUL character in `text` or `jsonb`, a lone UTF-16
 * surrogate is not Unicode at all (Postgres refuses its escape; UTF-8 encoding would replace it
 * with U+FFFD), and a JSON number beyond double range parses to Infinity, which JSON.stringify
 * turns into `null`. Such values are refused with their path rather than lost or changed.
 */
/** Deepest container nesting accepted in stored or executed JSON. */
export const MAX_JSON_DEPTH = 64;

/** A value that cannot be kept as given, and where it is. */
export interface JsonProblem {
  path: PropertyKey[];
  message: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as given, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate, which is not valid Unicode';
  return undefined;
}

/**
 * The text with each lone surrogate written as its visible escape (`\ud800`, six characters):
 * for channels that carry only valid Unicode, such as Temporal's failure messages (protobuf
 * strings), where one lone surrogate would otherwise fail the whole task completion.
 */
export function wellFormedText(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, 'g'), (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}

/** Why a number cannot be stored as given, or undefined when it can. */
export function numberProblem(value: number): string | undefined {
  if (Number.isNaN(value)) return 'is NaN, which JSON cannot hold';
  return Number.isFinite(value) ? undefined : 'is a number outside the range of a double (about ±1.8e308)';
}

/** One value inside a JSON value, with its path (an object key or array index per level). */
interface JsonPlace {
  value: unknown;
  path: PropertyKey[];
}

/**
 * The first place, in document order, for which `problemAt` answers a message. Walks without
 * recursion; containers at depth `max` are visited but not entered.
 */
function firstProblem(value: unknown, problemAt: (place: JsonPlace) => string | undefined, max = MAX_JSON_DEPTH): JsonProblem | undefined {
  const stack: JsonPlace[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const message = problemAt(place);
    if (message) return { path: place.path, message };
    const { value: current, path } = place;
    if (current === null || typeof current !== 'object' || path.length >= max) continue;
    const entries = Array.isArray(current) ? current.map((v, i) => [i, v] as const) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
  }
  return undefined;
}

/** Why a place is nested too deep, or undefined. */
function depthProblem({ value, path }: JsonPlace, max = MAX_JSON_DEPTH): string | undefined {
  return value !== null && typeof value === 'object' && path.length >= max ? `nested deeper than ${max} levels` : undefined;
}

/** Why a place's key or scalar value cannot be stored as given, or undefined. */
function storageProblem({ value, path }: JsonPlace, checkText: boolean): string | undefined {
  const key = path.at(-1);
  const keyProblem = typeof key === 'string' && checkText ? textProblem(key) : undefined;
  if (keyProblem) return `has a key that ${keyProblem}`;
  if (typeof value === 'string') return checkText ? textProblem(value) : undefined;
  return typeof value === 'number' ? numberProblem(value) : undefined;
}

/**
 * Why a key of untrusted JSON is refused: `__proto__`, and `prototype` under `constructor`, which
 * replace an object's prototype as soon as code copies or merges them by assignment.
 */
export function prototypeKeyProblem({ path }: Pick<JsonPlace, 'path'>): string | undefined {
  const key = path.at(-1);
  if (key === '__proto__') return 'is a key named "__proto__", which is refused (it could replace an object\'s prototype)';
  if (key === 'prototype' && path.at(-2) === 'constructor') return 'is a "constructor.prototype" key, which is refused (it could change an object\'s prototype)';
  return undefined;
}

/** The path of the first container nested deeper than `max`, or undefined when within it. */
export function tooDeepPath(value: unknown, max = MAX_JSON_DEPTH): PropertyKey[] | undefined {
  return firstProblem(value, (place) => depthProblem(place, max), max)?.path;
}

/**
 * The first string (value or object key) or number that cannot be stored as given; with
 * `text: false`, numbers only. Containers below MAX_JSON_DEPTH are not entered: depth is
 * tooDeepPath's to report.
 */
export function unstorablePath(value: unknown, options: { text?: boolean } = {}): JsonProblem | undefined {
  const checkText = options.text ?? true;
  return firstProblem(value, (place) => storageProblem(place, checkText));
}

/**
 * The first problem of untrusted JSON (a request body, run inputs): nested too deep, holding what
 * cannot be stored, or a key that could replace a prototype.
 */
export function jsonProblem(value: unknown): JsonProblem | undefined {
  return firstProblem(value, (place) => depthProblem(place) ?? storageProblem(place, true) ?? prototypeKeyProblem(place));
}

/** JSON text's strings and numbers, in order: a number is only ever looked for outside a string. */
const JSON_SCALARS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** An integral number's shortest decimal digits, as JSON.stringify writes them but without an exponent. */
function integerDigits(n: number): string {
  const exponent = /^(-?)(\d+)(?:\.(\d+))?e\+(\d+)$/.exec(String(n));
  if (!exponent) return String(n);
  const [, sign, whole, fraction = '', power] = exponent;
  return sign! + whole! + fraction + '0'.repeat(Number(power) - fraction.length);
}

/**
 * Why JSON text cannot be read as written, when it holds an integer that JSON.parse rounds to a
 * double written back with other digits (an id of 20 digits; past ±2^53 − 1 most integers are).
 * Digits a double writes back as they came (JSON.stringify's own output) read as written.
 */
export function inexactIntegerProblem(text: string): string | undefined {
  for (const [token] of text.matchAll(JSON_SCALARS)) {
    if (token.startsWith('"') || /[.eE]/.test(token)) continue;
    const parsed = Number(token);
    if (Number.isSafeInteger(parsed) || !Number.isFinite(parsed)) continue;
    const digits = integerDigits(parsed);
    if (BigInt(digits) === BigInt(token)) continue;
    return `holds the integer ${token}, which a JSON number cannot hold exactly (it would read as ${digits}): send it as a string`;
  }
  return undefined;
}
