import { describe, expect, it } from 'vitest';
import { contentWords } from '../../src/domain/content-words';
import { createWordAligner, topDirections } from '../../src/embeddings/word-alignment';
import type { WordVectors } from '../../src/embeddings/word-vectors';

/** A tiny word-vector table: each word a fixed 3-d vector (frequency order = table order). */
function table(entries: Array<[string, number[]]>): WordVectors {
  const ranks = new Map(entries.map(([word], i) => [word, i]));
  return {
    dims: 3,
    count: entries.length,
    common: new Float64Array(3),
    rank: (word) => ranks.get(word),
    addTo(out, rank, weight) {
      entries[rank]![1].forEach((v, d) => (out[d]! += v * weight));
    },
  };
}

describe('content words', () => {
  it('splits identifiers, lower-cases, drops Postgres english stop words and repeats', () => {
    expect(contentWords('Restore the postgres_database from {{inputs.x}} and restore it')).toEqual(['restore', 'postgres', 'database']);
  });
});

describe('word alignment', () => {
  const vectors = table([
    ['restore', [1, 0.1, 0]],
    ['recover', [0.9, 0.3, 0]],
    ['refund', [0, 1, 0.1]],
    ['money', [0.1, 0.9, 0.3]],
    ['database', [0, 0, 1]],
  ]);

  it('finds the principal direction of a table', () => {
    const line = table([['a', [1, 0, 0]], ['b', [-1, 0, 0]], ['c', [2, 0, 0]], ['d', [-2, 0, 0]]]);
    const { mean, directions } = topDirections(line, 1);
    expect(Array.from(mean)).toEqual([0, 0, 0]);
    expect(Math.abs(directions[0]![0]!)).toBeCloseTo(1, 9);
  });

  it('scores each task word by its best document word, averaged; the same word counts 1', () => {
    const aligner = createWordAligner(vectors, 0);
    expect(aligner.align(['restore', 'database'], ['restore', 'database', 'refund'])).toBeCloseTo(1, 12);
    // A near word covers a task word better than an unrelated one.
    expect(aligner.align(['recover'], ['restore'])).toBeGreaterThan(aligner.align(['recover'], ['refund']));
    // Words the table does not know are skipped on both sides; no known task word → 0.
    expect(aligner.align(['recover', 'pg_dump'], ['restore', 'pg_dump'])).toBeCloseTo(aligner.align(['recover'], ['restore']), 12);
    expect(aligner.align(['unknown'], ['restore'])).toBe(0);
    expect(aligner.align(['restore'], [])).toBe(0);
  });

  it('never goes below 0 for opposed words', () => {
    const opposed = table([['up', [1, 0, 0]], ['down', [-1, 0, 0]]]);
    expect(createWordAligner(opposed, 0).align(['up'], ['down'])).toBe(0);
  });
});
