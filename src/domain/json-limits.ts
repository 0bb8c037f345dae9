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

/** The path of the first container nested deeper than `max`, or undefined when within it. */
export function tooDeepPath(value: unknown, max = MAX_JSON_DEPTH): PropertyKey[] | undefined {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= max) return path;
    const entries = Array.isArray(current) ? current.map((v, i) => [i, v] as const) : Object.entries(current);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * The first string (value or object key) or number that cannot be stored as given; with
 * `text: false`, numbers only. Containers below MAX_JSON_DEPTH are not entered: depth is
 * tooDeepPath's to report.
 */
export function unstorablePath(value: unknown, options: { text?: boolean } = {}): JsonProblem | undefined {
  const checkText = options.text ?? true;
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string' && checkText) {
      const message = textProblem(current);
      if (message) return { path, message };
    } else if (typeof current === 'number') {
      const message = numberProblem(current);
      if (message) return { path, message };
    }
    if (current === null || typeof current !== 'object' || path.length >= MAX_JSON_DEPTH) continue;
    const entries = Array.isArray(current) ? current.map((v, i) => [i, v] as const) : Object.entries(current);
    for (const [key, child] of entries.reverse()) {
      const keyProblem = typeof key === 'string' && checkText ? textProblem(key) : undefined;
      if (keyProblem) return { path: [...path, key], message: `has a key that ${keyProblem}` };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/** The first problem of either kind: too deep, or holding what cannot be stored. */
export function jsonProblem(value: unknown): JsonProblem | undefined {
  const deep = tooDeepPath(value);
  if (deep) return { path: deep, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  return unstorablePath(value);
}
