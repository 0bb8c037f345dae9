/**
 * A number the task gives for something the plan does but has nowhere to take: no input reads it
 * off the task, no fixed param or phrasing of the plan holds it (`held`), and a word beside it
 * (links aside) is one the plan's params say ("a partial refund of 1500" against a plan refunding
 * the amount its lookup returned, `…/refunds`; "to revision 9" against a fixed `--to-revision=7`;
 * "to 4 replicas"). Run, the plan would do it with another amount or revision (fixed-values.ts).
 * A number inside a longer token (`#512`, `v2`, `2025-11-03`) or of time, money or rate ("for 10
 * minutes") is not read.
 */
import { sharesStem } from './content-words';
import type { Words } from './input-suggestions';

/** Words after a number that make it a quantity of time, money or rate ("for 10 minutes", "5 euros", "8%"), context more than a setting. */
const UNITS = new Set('s sec secs second seconds ms min mins minute minutes h hr hrs hour hours day days week weeks month months year years % percent eur euro euros usd dollars gbp times x req'.split(' '));
/** Words between a number and what it is the number of ("a refund of 1500", "revert to revision 9"). */
const LINKS = new Set(['of', 'to', 'at', 'by', 'the', 'a', 'an', 'only', 'up', 'down', 'just', 'exactly']);

/** The task's numbers (each once) that a word beside them ties to the plan's params, and `held` does not hold. */
export function numbersNowhereTaken(words: Words, held: ReadonlySet<string>, said: ReadonlySet<string>): string[] {
  const telling = (i: number, step: number) => {
    let j = i + step;
    while (LINKS.has(words.lower[j] ?? '')) j += step;
    const word = words.bare[j]?.toLowerCase() ?? '';
    return word.length > 2 && [...said].some((w) => sharesStem(w, word));
  };
  return [...new Set(words.bare)].filter((word) => {
    if (!/^\d+$/.test(word) || held.has(word) || held.has(String(Number(word)))) return false;
    return words.at.get(word)!.some((i) => !UNITS.has(words.lower[i + 1] ?? '') && (telling(i, -1) || telling(i, 1)));
  });
}

/** The words of a plan's params (path and value of each leaf): their keys, the words of their text and of the outputs they read (`{{nodes.lookup.output.body.amount}}` → amount). */
export function paramWords(params: ReadonlyArray<{ path: string; value: string | number }>): Set<string> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const w of text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}]+/u)) if (w.length > 2) words.add(w);
  };
  for (const leaf of params) {
    add(leaf.path);
    if (typeof leaf.value === 'string') add(leaf.value.replace(/\{\{\s*(?:inputs|run)\.[^}]*\}\}/g, ' '));
  }
  return words;
}
