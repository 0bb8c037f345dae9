import { describe, expect, it } from 'vitest';
import { BM25_K1, idf, lexicalMatch, parseTsvector, SECTION_WEIGHTS, type CorpusStats } from '../../src/domain/lexical';
import { documentEmbeddingText, documentWords, planDocument } from '../../src/domain/plan-document';
import {
  CALIBRATED_THRESHOLD,
  calibratedConfidence,
  calibratedScore,
  CALIBRATION,
  fusedMatch,
  FUSION_WEIGHTS,
  HISTORY_TIEBREAK,
  RUNNER_UP_FLOOR,
  reciprocalRankFusion,
} from '../../src/domain/selection';
import { MAX_ALIASES, normaliseAlias, withAlias } from '../../src/store/aliases';
import { knownParts } from '../../src/embeddings/semantic-embedder';
import { aliasMatch, ALIAS_FLOOR, exactCoverage, phrasingWithoutValues } from '../../src/domain/alias-match';
import { learningFolds } from '../../bench/selection/learning';
import { labelledQueries } from '../../bench/selection/labelled-set';

describe('lexical match (BM25F)', () => {
  it('parses tsvector text with section weights', () => {
    const doc = parseTsvector("'backup':1A,4B 'databas':3A 'it''s':7 'pg':9C");
    expect(doc.tf.get('backup')).toBe(SECTION_WEIGHTS.A + SECTION_WEIGHTS.B);
    expect(doc.tf.get('databas')).toBe(SECTION_WEIGHTS.A);
    expect(doc.tf.get("it's")).toBe(SECTION_WEIGHTS.D);
    expect(doc.tf.get('pg')).toBe(SECTION_WEIGHTS.C);
    expect(doc.length).toBe(4);
  });

  it('is the BM25 score over its ceiling, by hand', () => {
    const stats: CorpusStats = { documents: 10, averageLength: 2, df: (l) => (l === 'backup' ? 1 : 5) };
    const doc = parseTsvector("'backup':1A 'databas':2A");
    // length 2 = average → norm 1; tf 4 each.
    const part = (w: number) => (w * 4 * (BM25_K1 + 1)) / (4 + BM25_K1);
    const expected = (part(idf(stats, 'backup')) + 0) / ((idf(stats, 'backup') + idf(stats, 'restor')) * (BM25_K1 + 1));
    expect(lexicalMatch(['backup', 'restor', 'backup'], doc, stats)).toBeCloseTo(expected, 12);
    expect(idf(stats, 'backup')).toBeCloseTo(Math.log(1 + 9.5 / 1.5), 12);
    expect(lexicalMatch([], doc, stats)).toBe(0);
  });
});

describe('fusion, score and confidence', () => {
  it('fuses with the calibrated weights; single-evidence kinds use one signal', () => {
    const { alignment, cosine } = FUSION_WEIGHTS;
    expect(fusedMatch('hybrid', 0.5, { cosine: 0.6 })).toBeCloseTo(cosine.lexical * 0.5 + cosine.dense * 0.6, 12);
    // The word alignment, where there is one, is the dense evidence instead of the cosine.
    expect(fusedMatch('hybrid', 0.5, { alignment: 0.3, cosine: 0.6 })).toBeCloseTo(alignment.lexical * 0.5 + alignment.dense * 0.3, 12);
    expect(fusedMatch('lexical', 0.5, { alignment: 0.3, cosine: 0.6 })).toBe(0.5);
    expect(fusedMatch('dense', 0.5, { alignment: 0.3, cosine: 0.6 })).toBe(0.3);
    expect(fusedMatch('dense', 0.5, { cosine: -0.2 })).toBe(0);
    expect(reciprocalRankFusion(1, 1)).toBeCloseTo(1, 12);
  });

  it('success and recency cannot overturn a match better by more than the tie-break', () => {
    expect(calibratedScore(0.6, 0, 0)).toBeGreaterThan(calibratedScore(0.6 - HISTORY_TIEBREAK - 0.001, 1, 1));
    expect(calibratedScore(0.6, 1, 1)).toBeCloseTo(0.6 + HISTORY_TIEBREAK, 12);
  });

  it('confidence is σ(intercept + match·top + margin·(best − second))', () => {
    const z = CALIBRATION.intercept + CALIBRATION.match * 0.7 + CALIBRATION.margin * (0.72 - 0.5);
    expect(calibratedConfidence([{ match: 0.7, score: 0.72 }, { match: 0.48, score: 0.5 }])).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
    expect(calibratedConfidence([])).toBe(0);
    expect(calibratedConfidence([{ match: 0.7, score: 0.72 }])).toBeGreaterThan(calibratedConfidence([{ match: 0.7, score: 0.72 }, { match: 0.7, score: 0.71 }]));
    // A lone plan, or one beside only weak plans, is measured against what an unrelated plan scores.
    const lone = (match: number) => calibratedConfidence([{ match, score: match + 0.02 }]);
    const expected = (match: number) => 1 / (1 + Math.exp(-(CALIBRATION.intercept + CALIBRATION.match * match + CALIBRATION.margin * (match + 0.02 - RUNNER_UP_FLOOR))));
    expect(lone(0.7)).toBeCloseTo(expected(0.7), 12);
    expect(lone(0.156)).toBeLessThan(CALIBRATED_THRESHOLD);
    expect(lone(0.7)).toBeGreaterThan(CALIBRATED_THRESHOLD);
    const besideWeak = (match: number, weak: number) => calibratedConfidence([{ match, score: match + 0.02 }, { match: weak, score: weak }]);
    expect(besideWeak(0.35, 0.05)).toBeCloseTo(lone(0.35), 12);
    expect(besideWeak(0.35, 0.05)).toBeLessThan(CALIBRATED_THRESHOLD);
    expect(besideWeak(0.35, 0.33)).toBeLessThan(besideWeak(0.35, 0.05));
  });
});

describe('plan document and aliases', () => {
  it('learns a phrasing without the input values the task names, so other values match it too', () => {
    expect(phrasingWithoutValues('jot down a note called Retro: ship smaller PRs', { title: 'Retro', body: 'ship smaller PRs' })).toBe('jot down a note called');
    expect(phrasingWithoutValues('merge a.csv and b.csv on id', { files: ['a.csv', 'b.csv'], key: 'id' })).toBe('merge and on id');
    expect(phrasingWithoutValues('email order 55501 to Ada', { order: 55501, to: { name: 'Ada' } })).toBe('email order to');
    // Values shorter than 3 characters are words more often than values; a task that is all values stays whole.
    expect(phrasingWithoutValues('restart db in eu', { db: 'db', region: 'eu' })).toBe('restart db in eu');
    expect(phrasingWithoutValues('Katherine Johnson', { who: 'Katherine Johnson' })).toBe('Katherine Johnson');
  });

  it('splits identifiers and drops templates', () => {
    expect(documentWords('refreshStaging_fromProd {{inputs.db}}/x')).toBe('refresh Staging from Prod x');
    const doc = planDocument({ intent: 'a_b', nodes: [{ id: 'n', op: 'pg.dump', params: { k: 'v' }, guards: {} }], inputs_schema: {}, outputs_schema: {} }, { tags: ['c d'] });
    expect(doc).toEqual({ name: 'a b', about: 'c d', structure: 'pg dump', details: 'k v' });
    expect(documentEmbeddingText(doc)).toBe('a b a b c d pg dump');
  });

  it('aliases are normalised, deduplicated case-insensitively and bounded to the newest', () => {
    expect(normaliseAlias('  a   b ')).toBe('a b');
    expect(normaliseAlias('   ')).toBeUndefined();
    expect(withAlias(['Fix It'], 'fix it')).toBeUndefined();
    const full = Array.from({ length: MAX_ALIASES }, (_, i) => `t${i}`);
    expect(withAlias(full, 'new')).toEqual([...full.slice(1), 'new']);
  });

  it('unknown words fall back to a base form or a compound of known words', () => {
    const ranks = new Map([['health', 5], ['check', 7], ['deploy', 9]]);
    const vectors = { rank: (w: string) => ranks.get(w) };
    expect(knownParts(vectors, 'deploys')).toEqual([9]);
    expect(knownParts(vectors, 'healthcheck')).toEqual([5, 7]);
    expect(knownParts(vectors, 'zzqx')).toEqual([]);
  });
});

describe('alias match', () => {
  it("is the best alias's two-way coverage, rescaled above the floor", () => {
    expect(aliasMatch([1], [1])).toBe(1);
    expect(aliasMatch([], [])).toBe(0);
    // One-sided coverage (the task is a few words of a long alias) is halved by the other side.
    expect(aliasMatch([1], [0.2])).toBeCloseTo((0.6 - ALIAS_FLOOR) / (1 - ALIAS_FLOOR), 12);
    expect(aliasMatch([0.4], [0.5])).toBe(0);
    expect(aliasMatch([0.3, 0.9], [0.3, 0.8])).toBeCloseTo((0.85 - ALIAS_FLOOR) / (1 - ALIAS_FLOOR), 12);
  });

  it('exact coverage is the share of words found verbatim', () => {
    expect(exactCoverage(['a', 'b', 'c', 'd'], ['b', 'd', 'x'])).toBe(0.5);
    expect(exactCoverage([], ['a'])).toBe(0);
  });
});

describe('learning folds', () => {
  it('each fold learns one paraphrase and one domain phrasing per plan and asks the others', () => {
    const queries = labelledQueries();
    const folds = learningFolds(queries);
    expect(folds.length).toBeGreaterThanOrEqual(2);
    for (const fold of folds) {
      expect(fold.learned.some((q) => q.kind === 'label')).toBe(false);
      expect(fold.learned.filter((q) => q.plan === 0).map((q) => q.kind).sort()).toEqual(['domain', 'paraphrase']);
      expect(fold.asked.some((q) => fold.learned.includes(q))).toBe(false);
    }
    // Every learnable phrasing is learned in exactly one fold.
    const learned = folds.flatMap((f) => f.learned);
    expect(new Set(learned).size).toBe(learned.length);
  });
});
