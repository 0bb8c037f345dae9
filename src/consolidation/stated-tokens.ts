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
import { ENGLISH_STOP_WORDS } from '../domain/content-words';

const TOKEN = /[^\s"'`(),;!?<>[\]{}]+/g;
/** Sentence punctuation after a token is not part of it ("shipping-api:"). */
const TRAILING = /[.:]+$/;
/**
 * Edges of a stated value: not inside a longer word, id or number (`T-5120` does not state `5`
 * or `T-51`, `shipping-api-v2` does not state `shipping-api`, `1.2.3` does not state `1.2`,
 * `1,200` does not state `200`, `20:30` does not state `20`).
 * A URL's or path's separators (`/`, `=`, `&`, `?`, `.`, `:`) do end a value.
 */
const JOINED = /[\p{L}\p{N}_-]/u;
const DIGIT = /\p{N}/u;
const DIGIT_JOINING = /^[.,:]$/;
/** A number stands on its own: not in an id (`T-20`, `a20f`), a version (`v1.20`) or a path (`/srv/20`). */
const NUMBER_JOINED = /[\p{L}\p{N}_/-]/u;


const PERCENT_ESCAPE = /^%[0-9a-f]{2}$/i;

/** Whether `value`, found at `at` in `text`, stands at value edges: `joined` characters neither just before nor just after it. */
export function aloneAt(text: string, at: number, value: string, joined = JOINED, dotBefore = false): boolean {
  // A URL's percent escape ends where the value starts: `?name=%23100690` holds order 100690.
  const before = PERCENT_ESCAPE.test(text.slice(Math.max(0, at - 3), at)) ? '' : (text[at - 1] ?? '');
  const after = text[at + value.length] ?? '';
  // Digits joined by `.`, `,` or `:` are one number (`1.2.3`, `1,200`, `20:30`).
  const joinedBefore = (before === '.' && dotBefore) || (DIGIT_JOINING.test(before) && DIGIT.test(text[at - 2] ?? '') && DIGIT.test(value[0] ?? ''));
  const joinedAfter = DIGIT_JOINING.test(after) && DIGIT.test(text[at + value.length + 1] ?? '') && DIGIT.test(value.at(-1) ?? '');
  return !joined.test(before) && !joined.test(after) && !joinedBefore && !joinedAfter;
}

/** Where `value` first occurs in `text` at value edges; -1 when nowhere. */
export function firstAlone(text: string, value: string, joined = JOINED, dotBefore = false): number {
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) if (aloneAt(text, at, value, joined, dotBefore)) return at;
  return -1;
}

/** Whether `text` states `value`: a string at value edges, a number as a token of its own. */
export function statedIn(text: string): (value: unknown) => boolean {
  return (value) => {
    if (typeof value === 'string') return value.length > 0 && firstAlone(text, value) >= 0;
    return typeof value === 'number' && firstAlone(text, String(value), NUMBER_JOINED, true) >= 0;
  };
}

/**
 * Whether a token is shaped like a value, at least 4 characters long: letters joined by punctuation
 * or mixed with digits, or a number of 4+ digits (an id such as order 558812, not a count). A plain
 * word (`main`) is not: inside a longer arg it is as often something else (`/src/main/java`).
 */
export const isValueToken = (token: string) => token.length >= 4 && (distinctive(valueShape(token)) || /^\d+$/.test(token));

/**
 * A whole input's value, looked for inside longer args: shaped like a value, or a short id with
 * a digit (`w-7`, `T-12`): the task named it whole, so it is no common word ("restarted w-7").
 */
export const isInputToken = (token: string) => isValueToken(token) || (token.length >= 3 && /\p{N}/u.test(token) && distinctive(valueShape(token)));

/**
 * A whole input's plain word that is that value inside longer args too: a name written with a
 * capital (`Paris`, `EMEA`, `New York`), where a lowercase word (`main`) is as often something
 * else (`/src/main/java`); see `queryValueInterpolator` for those.
 */
export const isNameWord = (value: string) => value.length >= 3 && /^\p{Lu}\p{L}*(?: \p{Lu}\p{L}*)*$/u.test(value);

/**
 * Interpolates whole inputs' lowercase words (value → replacement) where a URL's query gives
 * them as a value (`?branch=main&…`): there the word is a value, whatever else it may mean.
 */
export function queryValueInterpolator(words: ReadonlyMap<string, string>): (text: string) => string {
  if (words.size === 0) return (text) => text;
  const keyChar = /[^=&#\s{}?]/;
  return (text) => {
    let out = text;
    for (const [word, replacement] of words) {
      for (let at = out.indexOf(`=${word}`); at >= 0; at = out.indexOf(`=${word}`, at + 1)) {
        const end = at + 1 + word.length;
        if (end < out.length && !/[&#\s]/.test(out[end]!)) continue;
        // A key of one or more characters, right after `?` or `&`.
        let k = at;
        while (k > 0 && keyChar.test(out[k - 1]!)) k--;
        if (k === at || (out[k - 1] !== '?' && out[k - 1] !== '&')) continue;
        out = out.slice(0, at + 1) + replacement + out.slice(end);
      }
    }
    return out;
  };
}

/** The value-shaped tokens of a text. */
export function valueTokens(text: string): string[] {
  // `acme/ledger#102` names the repository `acme/ledger` and its issue 102 (a `#channel` stays whole).
  const tokens = [...text.matchAll(TOKEN)].flatMap((m) => {
    const token = m[0].replace(TRAILING, '');
    // `#100690` is order 100690 where a URL escapes the `#` (`?name=%23100690`).
    if (/^#\d+$/.test(token)) return [token, token.slice(1)];
    return token.indexOf('#') > 0 ? [token, ...token.split('#')] : [token];
  });
  return tokens.filter(isValueToken);
}

/**
 * The word a text names a value with: the one before it ("ticket T-4411", "service: shipping-api"),
 * or else the one after it ("the 2xv99s desk"), when it says more than "for", "to" or "the" and
 * is no value itself (`isValue`).
 */
export function wordFor(text: string, value: string, isValue: (word: string) => boolean = () => false): string | undefined {
  const at = firstAlone(text, value);
  if (at < 0) return undefined;
  // Particles and pronouns name nothing: "roll out shipping-api-v2" does not call it `out`; nor
  // does another value ("ship payments v2.3.0" does not call the version `payments`).
  const telling = (word: string | undefined) => {
    const lower = word?.toLowerCase();
    return lower && !WEAK_NEIGHBOURS.has(lower) && !ENGLISH_STOP_WORDS.has(lower) && !isValue(word!) ? lower : undefined;
  };
  // A whole word, not the end of another value ("orders-api v3.8.2" does not call the version `api`).
  const before = /(?:^|[^\p{L}\p{N}_/.-])(\p{L}{3,})[\s:=#]*$/u.exec(text.slice(Math.max(0, at - 60), at))?.[1];
  const after = /^\s+(\p{L}{3,})(?![\p{L}\p{N}_-])/u.exec(text.slice(at + value.length, at + value.length + 60))?.[1];
  return telling(before) ?? telling(after);
}

/** Letters and digits only: what continues a strongly shaped value (`eu-west-1a` is another one, `k8s-eu-west-1-prod` holds it). */
const ALNUM = /[\p{L}\p{N}]/u;

/**
 * What may not touch a token for it to stand on its own. A value of three or more parts with a
 * digit (`eu-west-1`, `2025-11-03`, `v2.3.0`) is that value inside a name joined by `-` or `_`
 * (`k8s-eu-west-1-prod`, `release-v2.3.0-2025-11-03`); anything plainer is not
 * (`shipping-api-v2` is another service than `shipping-api`).
 */
const joinedTo = (token: string) => (/\d/.test(token) && (token.match(/[-.]/g) ?? []).length >= 2 ? ALNUM : JOINED);

/**
 * Interpolates the tokens of `stated` into texts: each occurrence at value edges (the longest
 * token first) is replaced by `replace(token)`, never inside a `{{ }}` template. Scanned with
 * indexOf, not a regular expression per set of tokens: every episode has its own tokens, and
 * compiling a pattern for each was most of what consolidation spent on an episode.
 */
export function tokenInterpolator(stated: ReadonlySet<string>): (text: string, replace: (token: string) => string) => string {
  if (stated.size === 0) return (text) => text;
  const tokens = [...stated].filter(Boolean).sort((a, b) => b.length - a.length);
  const literal = (segment: string, replace: (token: string) => string) => {
    // Where each token stands with no letter, digit, `_` or `-` just before or after it; at one
    // start the longest token wins, and a later match may not overlap an earlier one.
    const found: Array<{ at: number; token: string }> = [];
    for (const token of tokens) {
      const joined = joinedTo(token);
      for (let at = segment.indexOf(token); at >= 0; at = segment.indexOf(token, at + 1)) {
        const before = PERCENT_ESCAPE.test(segment.slice(Math.max(0, at - 3), at)) ? '' : (segment[at - 1] ?? '');
        if (!joined.test(before) && !joined.test(segment[at + token.length] ?? '')) found.push({ at, token });
      }
    }
    if (found.length === 0) return segment;
    found.sort((a, b) => a.at - b.at || b.token.length - a.token.length);
    let out = '';
    let from = 0;
    for (const { at, token } of found) {
      if (at < from) continue;
      out += segment.slice(from, at) + (aloneAt(segment, at, token, joinedTo(token)) ? replace(token) : token);
      from = at + token.length;
    }
    return out + segment.slice(from);
  };
  return (text, replace) => {
    if (!tokens.some((token) => text.includes(token))) return text;
    let out = '';
    let from = 0;
    for (const match of text.matchAll(TEMPLATE)) {
      out += literal(text.slice(from, match.index), replace) + match[0];
      from = match.index + match[0].length;
    }
    return out + literal(text.slice(from), replace);
  };
}
