import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../bench/lib/stats';

describe('medianInterval: a distribution-free interval for the median of repeated samples', () => {
  const ranks = (n: number) => Array.from({ length: n }, (_, i) => n - i); // unsorted on purpose

  it('takes the k-th smallest and largest samples with the exact binomial coverage', () => {
    // n = 11: P[B < 3] = (1 + 11 + 55) / 2048, so [x3, x9] covers 1 - 134/2048; k = 4 would cover only 0.77.
    expect(medianInterval(ranks(11))).toEqual({ low: 3, high: 9, coverage: 1 - 134 / 2048 });
    expect(medianInterval(ranks(15))).toEqual({ low: 4, high: 12, coverage: 1 - (2 * 576) / 32768 });
  });

  it('widens to the whole range when there are too few samples for the confidence asked', () => {
    expect(medianInterval(ranks(7))).toEqual({ low: 1, high: 7, coverage: 1 - 2 / 128 });
    expect(medianInterval(ranks(3))).toEqual({ low: 1, high: 3, coverage: 0.75 });
  });

  it('narrows as the confidence asked drops', () => {
    expect(medianInterval(ranks(11), 0.7)).toMatchObject({ low: 4, high: 8 });
  });
});
