/**
 * Content words of a text for word-level matching: the words the lexical index keeps, so the
 * word alignment and the BM25F match look at the same words.
 */
import { documentWords } from './plan-document';

/** Postgres' `english` text-search stop words (tsearch_data/english.stop), which the lexical index drops. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself ' +
    'they them their theirs themselves what which who whom this that these those am is are was were be been being have has had ' +
    'having do does did doing a an the and but if or because as until while of at by for with about against between into through ' +
    'during before after above below to from up down in out on off over under again further then once here there when where why ' +
    'how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now').split(' '),
);

/** Distinct lower-case content words of a text (identifiers split, templates and stop words dropped), in order. */
export function contentWords(text: string): string[] {
  const words = documentWords(text).toLowerCase().split(' ');
  return [...new Set(words.filter((w) => w && !ENGLISH_STOP_WORDS.has(w)))];
}

/** Whether two words are one with another ending ("payments"/"payment", "deploy"/"deployment"): one starts the other, 5+ letters, and an ending of 4 at most. */
export const sharesStem = (a: string, b: string) =>
  a === b || (Math.min(a.length, b.length) >= 5 && Math.abs(a.length - b.length) <= 4 && (a.startsWith(b) || b.startsWith(a)));
