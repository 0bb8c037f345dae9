/**
 * Lexical match of a task against a plan document: BM25F over the document's tsvector (as
 * Postgres prints it), each position counted by its section weight, normalised into [0, 1] by
 * the best score the query could reach. Pure, so the figures can be checked by hand.
 */

/** How much an occurrence counts, by tsvector weight: A name, B about, C structure, D details. */
export const SECTION_WEIGHTS = { A: 4, B: 2, C: 1.5, D: 0.5 } as const;
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Lexeme → weighted term frequency, and the document's length in distinct lexemes (as Postgres' length()). */
export interface ParsedDocument {
  tf: Map<string, number>;
  length: number;
}

/** Parses tsvector text such as `'backup':1A,4B 'databas':3A` into weighted term frequencies. */
export function parseTsvector(text: string | null | undefined): ParsedDocument {
  const tf = new Map<string, number>();
  if (!text) return { tf, length: 0 };
  // 'lexeme' (quotes doubled inside) optionally followed by :positions with weight letters.
  const entry = /'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g;
  for (const match of text.matchAll(entry)) {
    const lexeme = match[1]!.replace(/''/g, "'");
    const positions = match[2] ? match[2].split(',') : ['1'];
    const weight = positions.reduce((sum, p) => sum + SECTION_WEIGHTS[(/[A-C]$/.exec(p)?.[0] ?? 'D') as keyof typeof SECTION_WEIGHTS], 0);
    tf.set(lexeme, weight);
  }
  return { tf, length: tf.size };
}

/** Corpus statistics BM25 needs: plan count, average length (distinct lexemes), document frequencies. */
export interface CorpusStats {
  documents: number;
  averageLength: number;
  df(lexeme: string): number;
}

/** Inverse document frequency (the BM25 form, floored at a small positive value). */
export function idf(stats: CorpusStats, lexeme: string): number {
  const n = stats.documents;
  const df = Math.min(stats.df(lexeme), n);
  return Math.max(0.01, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
}

/**
 * BM25F of the query lexemes in a document, divided by the score of a document holding each
 * query lexeme with unbounded frequency (idf · (k1 + 1) per lexeme): 0 shares nothing, 1 is
 * the ceiling. Repeated query lexemes count once.
 */
export function lexicalMatch(queryLexemes: readonly string[], doc: ParsedDocument, stats: CorpusStats): number {
  const terms = [...new Set(queryLexemes)];
  if (terms.length === 0) return 0;
  const norm = 1 - BM25_B + BM25_B * (doc.length / Math.max(stats.averageLength, 1e-9));
  let score = 0;
  let ceiling = 0;
  for (const term of terms) {
    const weight = idf(stats, term);
    const tf = doc.tf.get(term) ?? 0;
    score += (weight * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
    ceiling += weight * (BM25_K1 + 1);
  }
  return score / ceiling;
}
