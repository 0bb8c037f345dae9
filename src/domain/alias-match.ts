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
