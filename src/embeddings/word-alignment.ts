/**
 * Word alignment: how well each word of a task is covered by some word of a plan's document,
 * by word-vector cosine (1 for the same word), averaged over the task's words. Unlike the
 * cosine of two sentence vectors, one strong pair ("recover" ~ "restore") is not averaged away
 * by the rest of a long document.
 *
 * The word vectors are post-processed first ("all-but-the-top", Mu & Viswanath 2018): the mean
 * vector and the top principal directions, which every word shares and which mostly encode
 * frequency, are removed, so cosines reflect meaning more than commonness.
 */
import type { WordVectors } from './word-vectors';

/** Principal directions removed: of 0, 2, 4, 8, 12, 16 and 24 tried on the labelled set (bench/selection), every value ≥ 2 helped and 8 most. */
export const REMOVED_COMPONENTS = 8;
/** The most frequent words the mean and principal directions are estimated over. */
const ESTIMATION_WORDS = 30_000;
const POWER_ITERATIONS = 100;
/** Post-processed vectors kept in memory; the cache is dropped whole when full (documents reuse a small vocabulary). */
const CACHE_LIMIT = 50_000;

/** Word alignment over a table of word vectors. */
export interface WordAligner {
  /** Mean over the task words that have a vector of their best cosine against the document words; 0 without such words. */
  align(taskWords: readonly string[], documentWords: readonly string[]): number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The mean and the top `count` principal directions of the most frequent words' vectors (power iteration with deflation). */
export function topDirections(vectors: WordVectors, count: number, words = ESTIMATION_WORDS): { mean: Float64Array; directions: Float64Array[] } {
  const dims = vectors.dims;
  const n = Math.min(words, vectors.count);
  const rows: Float64Array[] = [];
  const mean = new Float64Array(dims);
  for (let rank = 0; rank < n; rank++) {
    const row = new Float64Array(dims);
    vectors.addTo(row, rank, 1);
    rows.push(row);
    for (let d = 0; d < dims; d++) mean[d]! += row[d]! / n;
  }
  const covariance = Array.from({ length: dims }, () => new Float64Array(dims));
  for (const row of rows) {
    for (let d = 0; d < dims; d++) row[d]! -= mean[d]!;
    for (let i = 0; i < dims; i++) {
      const ri = row[i]!;
      const ci = covariance[i]!;
      for (let j = 0; j < dims; j++) ci[j]! += ri * row[j]!;
    }
  }
  const directions: Float64Array[] = [];
  for (let k = 0; k < count; k++) {
    let v = new Float64Array(dims).fill(1);
    for (let iteration = 0; iteration < POWER_ITERATIONS; iteration++) {
      const next = Float64Array.from(covariance, (row) => dot(row, v));
      for (const found of directions) {
        const along = dot(next, found);
        for (let d = 0; d < dims; d++) next[d]! -= along * found[d]!;
      }
      const norm = Math.hypot(...next) || 1;
      v = next.map((x) => x / norm);
    }
    directions.push(v);
  }
  return { mean, directions };
}

/** A word aligner over post-processed word vectors; words the table does not know are skipped. */
export function createWordAligner(vectors: WordVectors, components = REMOVED_COMPONENTS): WordAligner {
  const { mean, directions } = topDirections(vectors, components);
  const cache = new Map<string, Float64Array | null>();

  function vectorOf(word: string): Float64Array | null {
    const cached = cache.get(word);
    if (cached !== undefined) return cached;
    const rank = vectors.rank(word);
    let out: Float64Array | null = null;
    if (rank !== undefined) {
      out = new Float64Array(vectors.dims);
      vectors.addTo(out, rank, 1);
      for (let d = 0; d < out.length; d++) out[d]! -= mean[d]!;
      for (const direction of directions) {
        const along = dot(out, direction);
        for (let d = 0; d < out.length; d++) out[d]! -= along * direction[d]!;
      }
      const norm = Math.hypot(...out);
      if (norm === 0) out = null;
      else for (let d = 0; d < out.length; d++) out[d]! /= norm;
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, out);
    return out;
  }

  return {
    align(taskWords, documentWords) {
      const document = documentWords.map(vectorOf).filter((v): v is Float64Array => v !== null);
      let sum = 0;
      let counted = 0;
      for (const word of new Set(taskWords)) {
        const task = vectorOf(word);
        if (!task) continue;
        let best = 0;
        for (const candidate of document) best = Math.max(best, dot(task, candidate));
        sum += best;
        counted++;
      }
      return counted === 0 ? 0 : sum / counted;
    },
  };
}
