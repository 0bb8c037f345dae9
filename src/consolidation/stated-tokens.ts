/**
 * What a task states: whole values ("branch main") and values inside a longer arg: the task
 * "post the digest for shipping-api to #oncall" and the message "Health digest for
 * shipping-api: all ok", or the task "fetch ticket T-4411" and the URL `…/tickets?id=T-4411`.
 * Only tokens shaped like values count inside longer args (letters joined by punctuation, or with
 * digits: `shipping-api`, `INC-3071`, `#oncall`): an arg and its task share plain words
 * ("digest") without them being values.
 */
import { distinctive, valueShape, WEAK_NEIGHBOURS } from '../domain/input-suggestions';
import { TEMPLATE } from '../domain/refs';

const TOKEN = /[^\s"'`(),;!?<>[\]{}]+/g;
/** Sentence punctuation after a token is not part of it ("shipping-api:"). */
const TRAILING = /[.:]+$/;
/**
 * Edges of a stated value: not inside a longer word, id or number (`T-5120` does not state `5`
 * or `T-51`, `shipping-api-v2` does not state `shipping-api`, `1.2.3` does not state `1.2`).
 * A URL's or path's separators (`/`, `=`, `&`, `?`, `.`, `:`) do end a value.
 */
const BEFORE = String.raw`(?<![\p{L}\p{N}_-]|\p{N}\.)`;
const AFTER = String.raw`(?![\p{L}\p{N}_-]|\.\p{N})`;
/** A number stands on its own: not in an id (`T-20`, `a20f`), a version (`v1.20`) or a path (`/srv/20`). */
const NUMBER_BEFORE = String.raw`(?<![\p{L}\p{N}_./-])`;
const NUMBER_AFTER = String.raw`(?![\p{L}\p{N}_/-]|\.\p{N})`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` states `value`: a string at value edges (see BEFORE), a number as a token of its own. */
export function statedIn(text: string): (value: unknown) => boolean {
  return (value) => {
    if (typeof value === 'string') return value.length > 0 && new RegExp(`${BEFORE}${escape(value)}${AFTER}`, 'u').test(text);
    return typeof value === 'number' && new RegExp(`${NUMBER_BEFORE}${escape(String(value))}${NUMBER_AFTER}`, 'u').test(text);
  };
}

/** The value-shaped tokens of a text, at least 4 characters long. */
export function valueTokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[0].replace(TRAILING, '')).filter((token) => token.length >= 4 && distinctive(valueShape(token)));
}

/** The word a text names a value with ("ticket T-4411", "service: shipping-api"), when it says more than "for" or "to". */
export function wordBefore(text: string, value: string): string | undefined {
  const at = new RegExp(`${BEFORE}${escape(value)}${AFTER}`, 'u').exec(text)?.index;
  const word = at === undefined ? undefined : /(\p{L}{3,})[\s:=#]*$/u.exec(text.slice(0, at))?.[1]?.toLowerCase();
  return word && !WEAK_NEIGHBOURS.has(word) ? word : undefined;
}

/**
 * `text` with each occurrence of a token of `stated` (at value edges, the longest first) replaced
 * by `replace(token)`, never inside a `{{ }}` template.
 */
export function interpolateTokens(text: string, stated: ReadonlySet<string>, replace: (token: string) => string): string {
  if (stated.size === 0) return text;
  const alternatives = [...stated].sort((a, b) => b.length - a.length).map(escape);
  const occurrence = new RegExp(`${BEFORE}(?:${alternatives.join('|')})${AFTER}`, 'gu');
  const literal = (segment: string) => segment.replace(occurrence, (token) => replace(token));
  let out = '';
  let from = 0;
  for (const match of text.matchAll(TEMPLATE)) {
    out += literal(text.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return out + literal(text.slice(from));
}
