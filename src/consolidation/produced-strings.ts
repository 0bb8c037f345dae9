/**
 * Values a call returned, found inside a later call's longer string args (provenance.ts): which
 * count where, and the text rewritten with interpolated references to them.
 */
import { sharesStem } from '../domain/content-words';
import { outputRef, type JsonPath } from './json-leaves';
import { aloneAt, firstAlone } from './stated-tokens';

/** Where a traceable value was produced. */
export interface Producer {
  node: number;
  path: JsonPath;
}

/**
 * A string (or a number's text) a node returned, to be found inside later args; `segment`: only
 * as a whole URL path segment or a `#` reference; `keyed`: only from a call the consumer depends on
 * directly, beside a word of its key.
 */
export interface ProducedString {
  value: string;
  path: JsonPath;
  segment?: boolean;
  keyed?: boolean;
}

/** How many words either side of a keyed number its key's words are looked for. */
const KEY_WORD_REACH = 3;

/** Whether a word of the result key a number came from stands within KEY_WORD_REACH words of it ("5 days left" for `days_left`). */
function besideKeyWords(text: string, start: number, end: number, path: JsonPath): boolean {
  const keyWords = String(path.at(-1)).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2);
  const words = (part: string) => part.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean);
  const near = [...words(text.slice(Math.max(0, start - 60), start)).slice(-KEY_WORD_REACH), ...words(text.slice(end, end + 60)).slice(0, KEY_WORD_REACH)];
  return near.some((word) => keyWords.some((key) => sharesStem(key, word)));
}

/** Whether `value` stands at `start` of `text` as a whole segment of a URL path: `/issues/812/labels`, `/issues/812?x`. */
const isPathSegment = (text: string, start: number, value: string) => text[start - 1] === '/' && /^([/?#]|$)/.test(text.slice(start + value.length, start + value.length + 1)) && text.includes('://');

/**
 * Rewrites produced strings found inside a longer string as interpolated references: longest
 * values first, each occurrence at value edges (an output `restart` is not in "restarted"; see
 * stated-tokens.ts) and not overlapping one already taken. A number of 2 or 3 digits counts where
 * it is a URL path segment or a `#` reference, and anywhere when a call the consumer depends on
 * directly returned it (`churned = 187` in the code computing a rate from the count just queried).
 */
export function interpolate(
  text: string,
  producedStrings: ReadonlyArray<ReadonlyArray<ProducedString>>,
  best: (candidates: readonly Producer[]) => Producer | undefined,
  link: (p: Producer) => void,
  nodes: ReadonlyArray<{ id: string }>,
  isDirect: (p: Producer) => boolean,
): string {
  const byValue = new Map<string, Producer[]>();
  const segments = new Set<string>();
  const keyed = new Set<string>();
  producedStrings.forEach((list, node) => {
    for (const { value, path, segment, keyed: isKeyed } of list) {
      if (value.length < text.length && firstAlone(text, value) >= 0) byValue.set(value, [...(byValue.get(value) ?? []), { node, path }]);
      if (segment) segments.add(value);
      if (isKeyed) keyed.add(value);
    }
  });
  if (byValue.size === 0) return text;
  const spans: Array<{ start: number; end: number; ref: string }> = [];
  for (const value of [...byValue.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))) {
    const producer = best(byValue.get(value)!);
    if (!producer) continue;
    for (let start = text.indexOf(value); start >= 0; start = text.indexOf(value, start + 1)) {
      const end = start + value.length;
      if (!aloneAt(text, start, value) || spans.some((s) => start < s.end && s.start < end)) continue;
      if (segments.has(value) && !isDirect(producer) && !isPathSegment(text, start, value) && text[start - 1] !== '#') continue;
      if (keyed.has(value) && !(isDirect(producer) && besideKeyWords(text, start, end, producer.path))) continue;
      spans.push({ start, end, ref: outputRef(nodes[producer.node]!.id, producer.path) });
      link(producer);
    }
  }
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let from = 0;
  for (const span of spans) {
    out += text.slice(from, span.start) + span.ref;
    from = span.end;
  }
  return out + text.slice(from);
}
