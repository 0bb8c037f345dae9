/**
 * The default embedder: offline sentence vectors from GloVe word vectors. A sentence is the
 * SIF-weighted mean of its words' unit vectors (weight a / (a + p(w)), p from the word's
 * frequency rank by Zipf's law), so "the", "a", "to" barely count and rare, telling words
 * dominate, minus its component along the direction all sentences share. The word vectors fill the first 100 dimensions; words the table does not know (tool
 * names, product names) are tried as a plural/verb form or a compound of two known words, and
 * otherwise hashed by character trigrams into the remaining dimensions, where they can match
 * only each other.
 */
import { createHash } from 'node:crypto';
import { EMBEDDING_DIMENSIONS } from '../db/schema';
import { documentWords } from '../domain/plan-document';
import { contentWords } from '../domain/content-words';
import type { Embedder } from './embedder';
import { createWordAligner, type WordAligner } from './word-alignment';
import { loadWordVectors, wordVectorSource, type WordVectors } from './word-vectors';

/** SIF smoothing constant (Arora et al. 2017 use 1e-3 with corpus word probabilities). */
const SIF_A = 1e-4;
/** Zipf normaliser for a ~400k-word vocabulary: p(rank r) ≈ 1 / ((r + 1) · H), H = ln N + γ. */
const ZIPF_H = Math.log(400_000) + 0.5772;
const SUFFIXES = ['s', 'es', 'ed', 'ing', 'ly', 'er'];
const MIN_PART = 3;

const sifWeight = (rank: number) => SIF_A / (SIF_A + 1 / ((rank + 1) * ZIPF_H));

/** Known words (ranks) a token stands for: itself, a base form, or two halves of a compound. */
export function knownParts(vectors: Pick<WordVectors, 'rank'>, token: string): number[] {
  const direct = vectors.rank(token);
  if (direct !== undefined) return [direct];
  for (const suffix of SUFFIXES) {
    const base = token.endsWith(suffix) && token.length - suffix.length >= MIN_PART ? vectors.rank(token.slice(0, -suffix.length)) : undefined;
    if (base !== undefined) return [base];
  }
  let best: number[] = [];
  for (let cut = MIN_PART; cut <= token.length - MIN_PART; cut++) {
    const left = vectors.rank(token.slice(0, cut));
    const right = vectors.rank(token.slice(cut));
    if (left !== undefined && right !== undefined && (best.length === 0 || Math.max(left, right) < Math.max(best[0]!, best[1]!))) best = [left, right];
  }
  return best;
}

/** Adds the hashed character trigrams of an unknown word, as a unit vector × weight, into dims [from, to). */
function addHashed(out: Float64Array, token: string, from: number, weight: number): void {
  const span = EMBEDDING_DIMENSIONS - from;
  const padded = `^${token}$`;
  const grams: Array<[number, number]> = [];
  for (let i = 0; i + 3 <= padded.length; i++) {
    const digest = createHash('md5').update(padded.slice(i, i + 3)).digest();
    grams.push([from + (digest.readUInt32LE(0) % span), digest[4]! & 1 ? 1 : -1]);
  }
  const scale = weight / Math.sqrt(grams.length);
  for (const [index, sign] of grams) out[index]! += sign * scale;
}

/** The sentence vector of a text over the given word vectors (unit length, or zero without words). */
export function sentenceVector(vectors: WordVectors, text: string): number[] {
  const out = new Float64Array(EMBEDDING_DIMENSIONS);
  const tokens = documentWords(text).toLowerCase().split(' ').filter((t) => t && !/^\d+$/.test(t));
  for (const token of tokens) {
    const parts = knownParts(vectors, token);
    if (parts.length > 0) for (const rank of parts) vectors.addTo(out, rank, sifWeight(rank) / parts.length);
    else addHashed(out, token, vectors.dims, 1);
  }
  let shared = 0;
  for (let d = 0; d < vectors.dims; d++) shared += out[d]! * vectors.common[d]!;
  for (let d = 0; d < vectors.dims; d++) out[d]! -= shared * vectors.common[d]!;
  const norm = Math.hypot(...out);
  return Array.from(out, (v) => (norm === 0 ? 0 : v / norm));
}

let aligner: Promise<WordAligner> | undefined;

/** The word aligner over the same word vectors, built once per process (~0.5 s). */
function loadAligner(): Promise<WordAligner> {
  aligner ??= loadWordVectors().then((vectors) => createWordAligner(vectors));
  aligner.catch(() => (aligner = undefined));
  return aligner;
}

/**
 * The semantic embedder; the word vectors load on first use. Its name records their source, so
 * vectors it made can be told apart from another embedder's.
 */
export function createSemanticEmbedder(): Embedder {
  return {
    name: `sif:${wordVectorSource()}`,
    async embed(texts) {
      const vectors = await loadWordVectors();
      return texts.map((text) => sentenceVector(vectors, text));
    },
    async align(task, documents) {
      const words = await loadAligner();
      const taskWords = contentWords(task);
      return documents.map((document) => words.align(taskWords, document));
    },
  };
}
