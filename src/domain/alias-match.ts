/**
 * Matching a task against a plan's learned aliases (tasks the plan turned out to serve). An alias
 * is matched as a whole phrasing, both ways: how well the task's words are covered by the alias
 * and the alias's words by the task, averaged. A repeat of a learned task matches fully; a task
 * that shares one incidental word with an alias ("payments") matches weakly, where pouring the
 * alias's words into the plan document made every such task drift to the plan.
 */

/**
 * Two-way coverage below which two phrasings are no closer than unrelated tasks are (word-vector
 * coverage between phrasings of different plans in the labelled set stays mostly under it).
 * Coverage from the floor to 1 is rescaled to a match in [0, 1].
 */
export const ALIAS_FLOOR = 0.5;

/** Share of `from`'s words found verbatim in `to` (0 for no words): coverage without word vectors. */
export function exactCoverage(from: readonly string[], to: readonly string[]): number {
  if (from.length === 0) return 0;
  const target = new Set(to);
  return from.filter((word) => target.has(word)).length / from.length;
}

/**
 * The alias match in [0, 1]: the best alias's two-way coverage, rescaled above ALIAS_FLOOR.
 * `forward[k]` covers the task by alias k, `backward[k]` alias k by the task.
 */
export function aliasMatch(forward: readonly number[], backward: readonly number[]): number {
  let best = 0;
  forward.forEach((f, k) => {
    const coverage = (f + (backward[k] ?? 0)) / 2;
    best = Math.max(best, (coverage - ALIAS_FLOOR) / (1 - ALIAS_FLOOR));
  });
  return Math.min(1, best);
}

/** Shortest input value taken out of a learned phrasing (shorter ones are words, not values). */
const MIN_VALUE_LENGTH = 3;

/**
 * The phrasing a plan learns from a task it ran with these inputs: the task without the input
 * values it names ("jot down a note called Retro" → "jot down a note called"), so the next task
 * worded the same way with other values matches it too. The task itself when nothing is left.
 */
export function phrasingWithoutValues(task: string, inputs: unknown): string {
  const values = scalarLeaves(inputs)
    .map(String)
    .filter((v) => v.trim().length >= MIN_VALUE_LENGTH)
    .sort((a, b) => b.length - a.length);
  let phrasing = task;
  for (const value of values) phrasing = phrasing.split(value).join(' ');
  const cleaned = phrasing.replace(/\s+([,.;:!?])/g, '$1').replace(/[\s,.;:!?"'“”‘’()-]+$/u, '').replace(/\s+/g, ' ').trim();
  return /[\p{L}]{2}/u.test(cleaned) ? cleaned : task;
}

function scalarLeaves(value: unknown): Array<string | number> {
  if (typeof value === 'string' || typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(scalarLeaves);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(scalarLeaves);
  return [];
}
