import { describe, expect, it } from 'vitest';
import { bestLexicalWeight, crossValidate, outcomeAt, type QueryPool } from '../../bench/selection/cross-validate';
import { RUNNER_UP_FLOOR } from '../../src/domain/selection';

const pool = (plan: number, labelled: [number, number], other: [number, number]): QueryPool => ({
  query: { text: `q${plan}`, kind: 'paraphrase', plan },
  candidates: [
    { labelled: true, lexical: labelled[0], alignment: labelled[1], history: 0 },
    { labelled: false, lexical: other[0], alignment: other[1], history: 0 },
  ],
});

describe('cross-validated selection figures', () => {
  it('ranks a phrasing by the fused match at a given lexical weight', () => {
    // Lexical favours the wrong plan, alignment the right one.
    const p = pool(0, [0.1, 0.9], [0.7, 0.1]);
    expect(outcomeAt(p, 0.8).rank).toBe(2);
    const right = outcomeAt(p, 0.3);
    expect(right.rank).toBe(1);
    expect(right.top).toBeCloseTo(0.3 * 0.1 + 0.7 * 0.9, 12);
    // The runner-up (0.28) counts as the floor, as it does when the selector decides.
    expect(right.margin).toBeCloseTo(0.66 - Math.max(0.3 * 0.7 + 0.7 * 0.1, RUNNER_UP_FLOOR), 12);
  });

  it('chooses the weight on the training folds only and evaluates every phrasing once, held out', () => {
    // Every plan's phrasing is found only with a low lexical weight: each fold learns that from the others.
    const pools = Array.from({ length: 10 }, (_, plan) => pool(plan, [0.1, 0.9], [0.7, 0.1]));
    expect(bestLexicalWeight(pools)).toBeLessThan(0.6);
    const { outcomes, weights } = crossValidate(pools, 5);
    expect(weights).toHaveLength(5);
    expect(outcomes.map((o) => o.query.plan).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(outcomes.every((o) => o.rank === 1)).toBe(true);
  });
});
