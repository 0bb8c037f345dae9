/**
 * Embedders turn text into unit vectors of EMBEDDING_DIMENSIONS: the semantic one (offline word
 * vectors, the default), hashed word and character n-grams (no model at all), or an
 * OpenAI-compatible endpoint.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config';
import { EMBEDDING_DIMENSIONS } from '../db/schema';
import { createSemanticEmbedder } from './semantic-embedder';

export interface Embedder {
  readonly name: string;
  embed(texts: readonly string[]): Promise<number[][]>;
  /**
   * Word alignment of a task against each document, given as its content words (see
   * domain/content-words), in [0, 1]: a word-level semantic match, for embedders made of word
   * vectors; retrieval uses the sentence cosine where this is missing.
   */
  align?(task: string, documents: ReadonlyArray<readonly string[]>): Promise<number[]>;
}

function bucket(feature: string): { index: number; sign: number } {
  const digest = createHash('md5').update(feature).digest();
  return { index: digest.readUInt32LE(0) % EMBEDDING_DIMENSIONS, sign: digest[4]! & 1 ? 1 : -1 };
}

/** L2-normalises a vector in place (a zero vector stays zero). */
export function normalise(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

/** Deterministic feature-hashing embedding of words and character trigrams. */
export function hashEmbed(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const add = (feature: string, weight: number) => {
    const { index, sign } = bucket(feature);
    vector[index]! += sign * weight;
  };
  for (const word of words) {
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.5);
  }
  for (let i = 0; i + 1 < words.length; i++) add(`b:${words[i]} ${words[i + 1]}`, 0.7);
  return normalise(vector);
}

export const hashEmbedder: Embedder = {
  name: 'hash',
  embed: async (texts) => texts.map(hashEmbed),
};

/** An OpenAI-compatible /embeddings endpoint, asked for EMBEDDING_DIMENSIONS dimensions. */
export function createOpenAiEmbedder(options: { url: string; model: string; apiKey?: string }): Embedder {
  return {
    name: `openai:${options.model}`,
    async embed(texts) {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify({ model: options.model, input: texts, dimensions: EMBEDDING_DIMENSIONS }),
        signal: AbortSignal.timeout(30_000),
      });
      if (!response.ok) throw new Error(`embedding endpoint ${options.url} answered ${response.status}`);
      const body = (await response.json()) as { data: Array<{ embedding: number[]; index: number }> };
      return body.data.sort((a, b) => a.index - b.index).map((d) => {
        if (d.embedding.length !== EMBEDDING_DIMENSIONS) {
          throw new Error(`embedding endpoint returned ${d.embedding.length} dimensions, expected ${EMBEDDING_DIMENSIONS}`);
        }
        return normalise(d.embedding);
      });
    },
  };
}

/** The embedder the configuration names (the semantic one by default), or undefined for EMBEDDER=none. */
export function createEmbedder(config: Pick<Config, 'EMBEDDER' | 'EMBEDDING_URL' | 'EMBEDDING_MODEL' | 'EMBEDDING_API_KEY'>): Embedder | undefined {
  if (config.EMBEDDER === 'none') return undefined;
  if (config.EMBEDDER === 'openai') {
    return createOpenAiEmbedder({ url: config.EMBEDDING_URL, model: config.EMBEDDING_MODEL, apiKey: config.EMBEDDING_API_KEY });
  }
  if (config.EMBEDDER === 'hash') return hashEmbedder;
  return createSemanticEmbedder();
}
