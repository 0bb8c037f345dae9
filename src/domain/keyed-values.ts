/**
 * Another value named beside a fixed param's own name: "in the staging namespace", "a
 * blue-green strategy", "90-day retention", "tier 3", "…, namespace risk". A plan that always
 * uses `namespace: payments` would run there whatever the task said.
 */
import { fillerOnly, type Words } from './input-suggestions';
import { ENGLISH_STOP_WORDS, sharesStem } from './content-words';
import { namesValue, paramName, taskNames, type FixedParam } from './value-kinds';

/** Parts of a param's name too generic to name it in a task: `key_type` is named by "key", `retention_days` by "retention". */
const GENERIC_KEY_WORDS: ReadonlySet<string> = new Set(
  'type kind name id ids value values count number num days day hours hour minutes mins min seconds secs sec ms max default config setting settings option options param flag enabled'.split(' '),
);

/** Words between a param's name and its number: "due in 60 days", "retention of 14 days". */
const NUMBER_LEADS: ReadonlySet<string> = new Set(['of', 'in', 'to', 'at', 'for', 'is', 'as', 'set', 'be', 'equal', 'equals', 'now']);

/** The words of a param's name that name it in a task ("namespace", "strategy", "retention"). */
export const keyWords = (param: string) =>
  paramName(param)
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !GENERIC_KEY_WORDS.has(w) && !ENGLISH_STOP_WORDS.has(w));

/** Letters and digits only, for comparing `tier-2` with "tier 2" and "P2" with "p2". */
const alnum = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');


/** What the task's words say nothing of: the plan's own wording (`own`) and the values its inputs read (`read`). */
export interface PlanWording {
  own: ReadonlySet<string>;
  read: ReadonlyArray<string | number>;
}

/**
 * The words beside a param's name that name a value, read once per name (many params share one:
 * `namespace` in every node). A word the plan's own wording holds (or shares a stem with:
 * "deployment" beside "deploy"), a common or filler word, and a value an input takes say nothing.
 */
function besideReader(words: Words, wording: PlanWording): (param: string) => { names: ReadonlySet<string>; beside: Beside[] } {
  const sayNothing = (word: string) => {
    const lower = word.toLowerCase();
    return (
      (alnum(word).length < 2 && !/\d/.test(word)) ||
      ENGLISH_STOP_WORDS.has(lower) ||
      fillerOnly(lower) ||
      wording.read.some((value) => namesValue(word, value)) ||
      lower.split(/[^\p{L}\p{N}]+/u).every((part) => !part || wording.own.has(part)) ||
      [...wording.own].some((w) => sharesStem(w, lower))
    );
  };
  const besideByName = new Map<string, { names: ReadonlySet<string>; beside: Beside[] }>();
  return (param) => {
    const key = paramName(param);
    let found = besideByName.get(key);
    if (!found) {
      const nameWords = keyWords(param);
      found = { names: new Set(nameWords), beside: nameWords.length > 0 ? besideName(words, nameWords).filter(({ word }) => !sayNothing(word)) : [] };
      besideByName.set(key, found);
    }
    return found;
  };
}

/** For each fixed param, the first word beside its name that names another value. */
export function keyedConflicts(fixed: readonly FixedParam[], words: Words, wording: PlanWording): Array<FixedParam & { task: string }> {
  const besideNameOf = besideReader(words, wording);
  return fixed.flatMap((f) => {
    const { names } = besideNameOf(f.param);
    const beside = besideNameOf(f.param).beside.map(({ word }) => word);
    if (beside.length === 0 || (typeof f.value === 'string' && /\s|@|:\/\//.test(f.value))) return [];
    // "1800 minutes" beside `timeout_s: 1800` names another value though it writes the same number.
    const durations = typeof f.value === 'number' ? beside.filter((word) => durationOf(word) !== undefined) : [];
    if (durations.length === 0 && taskNames(words, f.value)) return [];
    const task = (durations.length > 0 ? durations : beside).find((word) => differs(word, f.value, names, f.param));
    return task ? [{ ...f, task }] : [];
  });
}

/**
 * For each input, the first value named beside its own name ("with max surge 30" for
 * `max_surge`, "namespace: staging"), as its type takes it: a number in the unit its name gives
 * ("a 20 minute timeout" is `timeout_s: 1200`), a string not shaped as another kind of value than
 * its examples (`accepts` says which words it may be). Suggested, not fixed: a word is read before
 * the name only when it holds a digit, since a word qualifying a name is often no value of it.
 */
export function keyedValues(
  inputs: ReadonlyArray<{ name: string; type: unknown; accepts?: (word: string) => boolean }>,
  words: Words,
  wording: PlanWording,
): Record<string, string | number> {
  const besideNameOf = besideReader(words, wording);
  return Object.fromEntries(
    inputs.flatMap(({ name, type, accepts }) => {
      for (const { word, before } of besideNameOf(name).beside) {
        // Before the name only a number is telling: "the release branch" need not be a branch named release.
        if (before && !/\d/.test(word)) continue;
        const value = type === 'integer' || type === 'number' ? quantityFor(word, name) : type === undefined || type === 'string' ? word : undefined;
        if (value === undefined || (type === 'integer' && !Number.isInteger(value)) || (accepts && !accepts(String(value)))) continue;
        return [[name, value]];
      }
      return [];
    }),
  );
}

/** A word beside a param's name, and whether it stands before the name ("the staging namespace"). */
interface Beside {
  word: string;
  before: boolean;
}

/**
 * The words beside a param's name: before it in the same clause ("the staging namespace"),
 * unless the name qualifies the word after it ("the audience list docs"); after it, a number
 * ("tier 3", "due in 60 days") or the value of a clause naming the param ("namespace: risk",
 * "…, namespace risk"), since "the strategy doc" is not a strategy.
 */
function besideName(words: Words, nameWords: readonly string[]): Beside[] {
  const names = new Set(nameWords);
  const isName = (word = '') => names.has(word) || (word.endsWith('s') && names.has(word.slice(0, -1)));
  const ends = (j: number) => j === words.raw.length - 1 || /[,.;:!?]$/.test(words.raw[j]!);
  const plain = (word = '') => ENGLISH_STOP_WORDS.has(word) || fillerOnly(word);
  // The name written as a key: `timeout_s=900`, `page_size: 500`.
  const keyed = words.raw.flatMap((raw) => {
    const [, key = '', value = ''] = /^([\p{L}\p{N}_.-]+)[=:]([^\s=:]+)$/u.exec(raw) ?? [];
    return value && key.toLowerCase().split(/[^\p{L}\p{N}]+/u).some((part) => names.has(part)) ? [{ word: value.replace(/[,.;:!?]+$/, ''), before: false }] : [];
  });
  return [...keyed, ...words.lower.flatMap((word, i) => {
    // A name of two words ("the handbook CMS space" for `cms_space`) is read from its first to its
    // last, and ends with its last word: "page 2" does not name `page_size`.
    if (!isName(word) || isName(words.lower[i + 1])) return [];
    if (nameWords.length > 1 && word !== nameWords.at(-1) && word !== `${nameWords.at(-1)}s`) return [];
    let first = i;
    while (first > 0 && isName(words.lower[first - 1]) && !ends(first - 1)) first--;
    const qualifies = !ends(i) && i + 1 < words.raw.length && !plain(words.lower[i + 1]);
    const before = first > 0 && !ends(first - 1) && !qualifies ? [first - 1] : [];
    // A number after a comma starts the next clause ("a 30 minute timeout, 30-day retention"); lead
    // words may come between ("timeout of 900", "timeout set to 900").
    const leadsTo = (j: number) => words.lower.slice(i + 1, j).every((lead, k) => NUMBER_LEADS.has(lead) && !ends(i + 1 + k));
    const number = [i + 1, i + 2, i + 3].find((j) => /\d/.test(words.bare[j] ?? '') && leadsTo(j) && !ends(i));
    // "namespace: risk", ", namespace risk", and "with reason fraudulent" at a clause's end.
    const clauseStart = first === 0 || ends(first - 1) || WITH.has(words.lower[first - 1]!);
    const keyValue = /:$/.test(words.raw[i]!) || (clauseStart && ends(i + 1));
    const after = number !== undefined ? [number] : keyValue && i + 1 < words.raw.length ? [i + 1] : [];
    // A number with its unit is one value: "a 2 hour timeout", "timeout of 30 minutes".
    const quantity = (j: number) => {
      if (/^\d/.test(words.bare[j]!) && !ends(j) && timeUnit(words.lower[j + 1] ?? '') !== undefined) return `${words.bare[j]} ${words.bare[j + 1]}`;
      if (timeUnit(words.lower[j]!) !== undefined && j > 0 && /^\d/.test(words.bare[j - 1]!) && !ends(j - 1)) return `${words.bare[j - 1]} ${words.bare[j]}`;
      return words.bare[j]!;
    };
    return [...before.map((j) => ({ word: quantity(j), before: true })), ...after.map((j) => ({ word: quantity(j), before: false }))];
  })];
}

/** Words that give a setting by its name: "with reason fraudulent", "using strategy canary". */
const WITH = new Set(['with', 'using']);

/** Units of time as tasks and param names write them, in seconds ("m" is minutes: a duration's months are spelt out). */
const TIME_UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(ms|msecs?|millis|milliseconds?)$/, 0.001],
  [/^(s|secs?|seconds?)$/, 1],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(h|hrs?|hours?)$/, 3_600],
  [/^(d|days?)$/, 86_400],
  [/^(w|wks?|weeks?)$/, 604_800],
  [/^months?$/, 2_592_000],
  [/^(y|yrs?|years?)$/, 31_536_000],
];
const timeUnit = (word: string) => TIME_UNITS.find(([unit]) => unit.test(word))?.[1];

/** A duration a task's word writes, in seconds: "90-day", "2 hours", "30min"; undefined when it is none. */
function durationOf(word: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)[\s-]?([a-z]+)$/i.exec(withoutGrouping(word));
  const unit = match && timeUnit(match[2]!.toLowerCase());
  return unit === undefined || unit === null ? undefined : Number(match![1]) * unit;
}

/** The unit of time a param's name gives its value in (`timeout_s`, `retentionDays`), if any. */
function paramTimeUnit(param: string): number | undefined {
  const parts = paramName(param).replace(/(\p{Ll})(\p{Lu})/gu, '$1_$2').toLowerCase().split(/[^a-z0-9]+/);
  return parts.length > 1 ? timeUnit(parts.at(-1)!) : undefined;
}

/**
 * The number a word beside a param's name gives it, in the param's unit: "200" → 200, "20 minute"
 * → 1200 for `timeout_s`; undefined for a duration the param's name gives no unit for.
 */
export function quantityFor(word: string, param: string): number | undefined {
  const duration = durationOf(word);
  if (duration !== undefined) {
    const unit = paramTimeUnit(param);
    return unit === undefined ? undefined : duration / unit;
  }
  return leadingNumber(word);
}

/** A number's digits without thousands separators: "1,800" is 1800. */
const withoutGrouping = (word: string) => word.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');

/** The number a word starts with, thousands separators read as such ("1,000 rows" → 1000). */
const leadingNumber = (word: string) => {
  const number = /^\d+(\.\d+)?/.exec(withoutGrouping(word))?.[0];
  return number === undefined ? undefined : Number(number);
};

/** Units a param without one in its name may hold a duration in. */
const LIKELY_UNITS = [1, 0.001, 60, 3_600, 86_400];

/**
 * Whether a word beside the param's name names another value than `value`: "tier 3" against
 * `tier-2`, "90-day" against 30. A duration is compared in the param's unit ("30 minutes" is
 * `timeout_s: 1800`); without a unit in its name, in whichever common unit makes them equal.
 */
function differs(word: string, value: string | number, names: ReadonlySet<string>, param: string): boolean {
  const duration = typeof value === 'number' ? durationOf(word) : undefined;
  if (duration !== undefined) {
    const unit = paramTimeUnit(param);
    const same = (inUnit: number) => Math.abs(duration / inUnit - (value as number)) < 1e-9 * Math.max(1, duration / inUnit);
    return unit !== undefined ? !same(unit) : !LIKELY_UNITS.some(same);
  }
  if (typeof value === 'number') {
    const number = leadingNumber(word);
    return number !== undefined && number !== value;
  }
  return !namesValue(word, value) && !sharesStem(alnum(word), alnum(value)) && ![...names].some((name) => alnum(name + word) === alnum(value));
}
