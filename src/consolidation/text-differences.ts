/**
 * Where two texts differ, as anti-unification reads them (generalise.ts): the middle they differ
 * in, widened so that no word, number or template is cut; the several spans a text differs in;
 * plain words joined alike; and what a text has where a template's templates stand.
 */
import { inputRefName } from './input-schema';
import { TEMPLATE } from '../domain/refs';

const WORD = /[\p{L}\p{N}_]/u;
const DIGIT = /\p{N}/u;
/** What joins the parts of one value: `2025-W18`, `1.3.0`, `20:30`. */
const JOINER = /[-.:]/;
/** Text with words (a message, a command line), as opposed to one value (a URL, an id, a path). */
export const isProse = (text: string) => /\S\s+\S/.test(text);
/** Least text two differing texts must share for their middle alone to become an input. */
export const MIN_SHARED_TEXT = 4;

/** Where each `{{ }}` template of a string starts and ends. */
export const templateSpans = (text: string) => [...text.matchAll(TEMPLATE)].map((m) => [m.index, m.index + m[0].length] as const);

/**
 * Whether a cut at `at` falls inside a word or number, or through the joiner of a number and what
 * follows (`2025-W18`, `1.3.0`, `20:30`): those are one value, which an input takes whole.
 */
const joinsNumber = (text: string, joiner: number) => JOINER.test(text[joiner] ?? '') && DIGIT.test(text[joiner - 1] ?? '') && WORD.test(text[joiner + 1] ?? '');
const cuts = (text: string, at: number) => (WORD.test(text[at - 1] ?? '') && WORD.test(text[at] ?? '')) || joinsNumber(text, at) || joinsNumber(text, at - 1);

/**
 * Where two texts differ, as spans `[startA, endA, startB, endB]` left to right: one differing
 * middle, split where the middles share a run of MIN_SHARED_TEXT+ characters not cut inside a
 * value (`region='EMEA' AND week='2025-W18'` beside `…'APAC' AND week='2025-W19'` differs in the
 * region and in the week, two values, not in one span from the first to the second).
 */
export function differingSpans(a: string, b: string, depth = 0): Array<[number, number, number, number]> {
  const [start, aEnd, bEnd] = differingMiddle(a, b);
  const whole: Array<[number, number, number, number]> = [[start, aEnd, start, bEnd]];
  const run = depth < MAX_SPLITS ? sharedRun(a, start, aEnd, b, start, bEnd) : undefined;
  if (!run) return whole;
  const [i, j, length] = run;
  const left = a.slice(start, i) && b.slice(start, j) ? differingSpans(a.slice(0, i), b.slice(0, j), depth + 1) : [];
  const right = a.slice(i + length, aEnd) && b.slice(j + length, bEnd) ? differingSpans(a.slice(i + length), b.slice(j + length), depth + 1) : [];
  // An insertion on one side (nothing differs there on the other) is no value of its own.
  if (left.length === 0 || right.length === 0) return whole;
  const shift = (spans: typeof left, byA: number, byB: number) => spans.map(([s1, e1, s2, e2]): [number, number, number, number] => [s1 + byA, e1 + byA, s2 + byB, e2 + byB]);
  return [...left, ...shift(right, i + length, j + length)];
}

/** Most differing spans one text is split into. */
const MAX_SPLITS = 3;

/**
 * The longest run of characters the two middles share, at least MIN_SHARED_TEXT long once it no
 * longer cuts a value at either end: `[startA, startB, length]` in the whole texts.
 */
function sharedRun(a: string, aFrom: number, aTo: number, b: string, bFrom: number, bTo: number): [number, number, number] | undefined {
  if (aTo - aFrom > MAX_RUN_SEARCH || bTo - bFrom > MAX_RUN_SEARCH) return undefined;
  let best: [number, number, number] | undefined;
  let row = new Array<number>(bTo - bFrom + 1).fill(0);
  for (let x = aFrom; x < aTo; x++) {
    const next = new Array<number>(bTo - bFrom + 1).fill(0);
    for (let y = bFrom; y < bTo; y++) {
      if (a[x] !== b[y]) continue;
      const length = row[y - bFrom]! + 1;
      next[y - bFrom + 1] = length;
      if (!best || length > best[2]) best = [x - length + 1, y - length + 1, length];
    }
    row = next;
  }
  if (!best) return undefined;
  let [i, j, length] = best;
  while (length > 0 && (cuts(a, i) || cuts(b, j))) [i, j, length] = [i + 1, j + 1, length - 1];
  while (length > 0 && (cuts(a, i + length) || cuts(b, j + length))) length -= 1;
  return length >= MIN_SHARED_TEXT ? [i, j, length] : undefined;
}

/** Longest middle searched for a shared run (the search is quadratic). */
const MAX_RUN_SEARCH = 400;

/**
 * Where two different strings differ: [start, end in a, end in b] after their longest common
 * prefix and suffix, widened so that no template, word or number is cut at either edge (`cuts`), and to
 * the whole value of a URL query it lies in.
 */
export function differingMiddle(a: string, b: string): [number, number, number] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let tail = 0;
  while (tail < a.length - start && tail < b.length - start && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  for (let moved = true; moved; ) {
    moved = false;
    for (const text of [a, b]) {
      if (start > 0 && cuts(text, start)) {
        start--;
        moved = true;
      }
      for (const [from, to] of templateSpans(text)) {
        if (from < start && start < to) {
          start = from;
          moved = true;
        }
      }
      const end = text.length - tail;
      if (tail > 0 && cuts(text, end)) {
        tail--;
        moved = true;
      }
      for (const [from, to] of templateSpans(text)) {
        if (from < end && end < to) {
          tail = text.length - to;
          moved = true;
        }
      }
    }
  }
  return widenToQueryValue(a, b, start, tail);
}

/**
 * A middle inside a URL query's value (`?project=acme-api&…` beside `acme-web`) widened to the
 * whole value, which is one value whatever joins its parts; unless a template stands there.
 */
function widenToQueryValue(a: string, b: string, start: number, tail: number): [number, number, number] {
  const keep: [number, number, number] = [start, a.length - tail, b.length - tail];
  const equals = a.lastIndexOf('=', start - 1);
  if (equals < 0 || !/[?&][^=&#?\s{}/]+$/.test(a.slice(0, equals)) || /[&#?\s{}]/.test(a.slice(equals + 1, start))) return keep;
  const valueEnd = (text: string, from: number) => {
    const end = text.slice(from).search(/[&#\s]/);
    return end < 0 ? text.length : from + end;
  };
  const [aEnd, bEnd] = [valueEnd(a, a.length - tail), valueEnd(b, b.length - tail)];
  if (a.length - aEnd !== b.length - bEnd || /[{}]/.test(a.slice(equals + 1, aEnd) + b.slice(equals + 1, bEnd))) return keep;
  return [equals + 1, aEnd, bEnd];
}

/**
 * The values `text` has where `template`'s templates stand, when the rest of both is the same text,
 * as [input name, value] for each input template (the same input the same value throughout);
 * undefined when it does not fit or the template holds no input.
 */
export function fitTemplate(template: string, text: string): Array<[string, string]> | undefined {
  const templates = [...template.matchAll(TEMPLATE)];
  // Each template is a lazy group the match may backtrack over: long texts with many are not tried.
  if (templates.length > MAX_FITTED_TEMPLATES || text.length > MAX_FITTED_TEXT) return undefined;
  const names: string[] = [];
  let pattern = '^';
  let from = 0;
  for (const match of templates) {
    pattern += escapeRegExp(template.slice(from, match.index));
    const name = inputRefName(match[0]);
    const seen = name ? names.indexOf(name) : -1;
    if (name && seen >= 0) pattern += `\\k<g${seen}>`;
    else if (name) pattern += `(?<g${names.push(name) - 1}>[\\s\\S]+?)`;
    else pattern += '[\\s\\S]*?';
    from = match.index + match[0].length;
  }
  if (names.length === 0) return undefined;
  const found = new RegExp(`${pattern}${escapeRegExp(template.slice(from))}$`).exec(text);
  return found ? names.map((name, i) => [name, found.groups![`g${i}`]!]) : undefined;
}

const MAX_FITTED_TEMPLATES = 6;
/** A text that is one template and nothing else. */
export const TEMPLATE_ONLY = /^\{\{[^{}]*\}\}$/;
const MAX_FITTED_TEXT = 2_000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Two middles of plain words joined by dots (`ledger.staging`, `checkout.production`: labels of a
 * host name, each a value of its own), as pairs of parts and joiners; undefined otherwise. A number
 * such as `1.3.0` is one value, and so are words joined by `-`, `_` or `/` (`eu-west`, `acme/api`).
 */
export function joinedWords(a: string, b: string): Array<[string, string]> | undefined {
  const split = (joiners: RegExp) => {
    const [partsA, partsB] = [a.split(joiners), b.split(joiners)];
    if (partsA.length < 3 || partsA.length !== partsB.length) return undefined;
    const pairs = partsA.map((part, i): [string, string] => [part, partsB[i]!]);
    return pairs.every(([x, y], i) => (i % 2 === 1 ? x === y : /^\p{L}+$/u.test(x) && /^\p{L}+$/u.test(y))) ? pairs : undefined;
  };
  // Words apart are one value only when it is one value repeated (`ledger ledger=` beside `checkout checkout=`), not prose.
  const spaced = split(/(\s+|\.)/);
  const differing = new Set(spaced?.filter(([x, y]) => x !== y).map((pair) => pair.join('\u0000')));
  return split(/(\.)/) ?? (differing.size === 1 ? spaced : undefined);
}
