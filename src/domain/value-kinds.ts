/**
 * What a value is, as far as telling which param it is for: its kind (an address, a channel, a
 * closed class's member, an identifier's shape) and whether a task's word names it.
 */
import { addressShape, sameValue, valueShape, type Words } from './input-suggestions';
import { ENGLISH_STOP_WORDS } from './content-words';
import { regionOfPlace, valueClass } from './value-classes';

/** A fixed param of a plan: where it is (node, path in the params) and its value. */
export interface FixedParam {
  node: string;
  param: string;
  value: string | number;
}

/**
 * A value's kind when it is telling enough to compare: an e-mail address, a URL, a chat channel
 * (`#ops-alerts`), a member of a closed class (a file format, a currency, a language…:
 * value-classes.ts), or an identifier mixing digits with letters or punctuation (`T-102`,
 * `eu-west-1`, `2026-11-29`; in any case: `sup-10500` is a `SUP-10102`). Other plain words and
 * numbers say nothing about which param they are for. `inText` reads a task's word.
 */
export function valueKind(value: string, inText = false): string | undefined {
  // Any URL is one kind: a fixed endpoint and a named page differ in path, not in kind.
  const address = addressShape(value);
  if (address) return address.startsWith('address w://') ? 'url' : 'e-mail';
  // A channel has a letter: `#77341` is a ticket's number.
  if (/^#[\p{L}\p{N}_.-]*\p{L}[\p{L}\p{N}_.-]*$/u.test(value)) return 'channel';
  const known = valueClass(value, inText);
  if (known) return known.kind;
  if (CLOUD_REGION.test(value.toLowerCase())) return 'cloud region';
  const region = inText ? regionOfPlace(value) : undefined;
  if (region) return valueKind(region);
  if (isSlug(value)) return 'slug';
  const shape = valueShape(value.toLowerCase());
  return /9/.test(shape) && /[^9]/.test(shape) && shape.length >= 3 && !/\s/.test(value) ? shape : undefined;
}

/**
 * A cloud region's code, AWS's (`eu-west-1`) or Google Cloud's (`europe-west1`): its own kind,
 * never one with the host and group names it shares a shape with (`store-berlin-01`).
 */
const CLOUD_REGION = /^(us|eu|ap|sa|ca|me|af|il|mx|europe|asia|australia|northamerica|southamerica|africa)-(north|south|east|west|central|northeast|northwest|southeast|southwest)-?\d$/;

/** An `owner/name` pair (`acme/web-app`), each part 3+ characters and no common word ("and/or", "CI/CD" are not). */
function isSlug(value: string): boolean {
  // A team's handle is a slug too: `@acme/release-team`.
  const parts = /^@?([\p{L}][\p{L}\p{N}_.-]*)\/([\p{L}\p{N}][\p{L}\p{N}_.-]*)$/u.exec(value)?.slice(1);
  return parts !== undefined && parts.every((part) => part.length >= 3 && !ENGLISH_STOP_WORDS.has(part.toLowerCase()));
}

/**
 * The keys a value is known by, in any spelling: itself (case-blind), its class's member
 * (`member:production` for `prod`), and in a task's words the region a place names ("Ireland"
 * → `eu-west-1`). Two values with a key in common name the same thing.
 */
function valueKeys(value: string | number, inText: boolean): string[] {
  const keys = [sameValue(value)];
  const member = valueClass(String(value), inText)?.member;
  if (member !== undefined) keys.push(`member:${member}`);
  const region = inText ? regionOfPlace(String(value)) : undefined;
  if (region !== undefined) keys.push(region);
  return keys;
}

/** Whether a task's word names any of `values` (namesValue, with the values' keys gathered once). */
export function namesAnyOf(values: ReadonlyArray<string | number>): (word: string) => boolean {
  const keys = new Set(values.flatMap((value) => valueKeys(value, false)));
  return (word) => valueKeys(word, true).some((key) => keys.has(key));
}

/** Whether a task's word names a value: itself in any case, the same member of its class (`prod` for `production`), or its region's place ("Ireland" for eu-west-1). */
export function namesValue(word: string | number, value: string | number): boolean {
  const keys = valueKeys(value, false);
  return valueKeys(word, true).some((key) => keys.includes(key));
}

/** A param's own name: the last key of its path (`cc[1]` → cc, `headers.retentionDays` → retentionDays). */
export const paramName = (param: string) => /([\p{L}\p{N}_-]+)(\[\d+\])*$/u.exec(param)?.[1] ?? '';

/** Words that set a value aside: "not deepl", "instead of zstd", "rather than main". */
const SET_ASIDE = [['not'], ['no'], ['instead', 'of'], ['rather', 'than'], ['than']];

/** The keys of the values a task names, words it sets aside left out; computed once per task. */
const namedKeys = new WeakMap<Words, Set<string>>();

/** Whether the task names `value` other than to set it aside ("gzip it instead of zstd" does not ask for zstd). */
export function taskNames(words: Words, value: string | number): boolean {
  let keys = namedKeys.get(words);
  if (!keys) {
    const setAside = (i: number) => SET_ASIDE.some((lead) => lead.every((w, k) => words.lower[i - lead.length + k] === w));
    keys = new Set(words.bare.flatMap((word, i) => (setAside(i) ? [] : valueKeys(word, true))));
    namedKeys.set(words, keys);
  }
  return valueKeys(value, false).some((key) => keys.has(key));
}
