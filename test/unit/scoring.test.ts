import { describe, expect, it } from 'vitest';
import type { Payload } from '../../src/domain/records';
import { applicability, recency, scoreRecord, select, selectionConfidence, successRate } from '../../src/domain/scoring';

const NOW = new Date('2025-01-31T00:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

function plan(executions = 0, failureRate = 0): Payload {
  return {
    kind: 'plan_graph',
    plan_id: 'p',
    version: '1',
    intent: 'x',
    constraints: { failure_policy: 'fail_fast' },
    inputs_schema: {},
    outputs_schema: {},
    nodes: [{ id: 'a', op: 'noop', params: {}, guards: {} }],
    edges: [],
    metrics: { execution_count: executions, failure_rate: failureRate, avg_latency_ms: 0, last_executed_at: null },
  };
}
const competence = (success_count: number, failure_count: number): Payload => ({
  kind: 'competence',
  skill_name: 's',
  triggers: [],
  recipe: [],
  required_tools: [],
  performance: { success_count, failure_count, success_rate: 0, avg_latency_ms: 0, last_used_at: null },
  version: '1',
});

// Twelve decimal places: exact up to floating-point rounding of the hand computation.
const exactly = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 12);

describe('scoring signals (docs/selection.md), hand-computed', () => {
  it('a confident but stale plan loses to a fresh, less confident one', () => {
    // stale: (0.9 + 0.5 + 0.5^(60/30)=0.25) / 3 = 0.55 ; fresh: (0.6 + 0.5 + 1) / 3 = 0.7
    const stale = scoreRecord({ confidence: 0.9, last_reinforced_at: daysAgo(60), payload: plan() }, NOW);
    const fresh = scoreRecord({ confidence: 0.6, last_reinforced_at: NOW.toISOString(), payload: plan() }, NOW);
    exactly(stale.score, 0.55);
    exactly(fresh.score, 0.7);
    expect(fresh.score).toBeGreaterThan(stale.score);
    expect(stale.signals).toEqual({ applicability: 0.9, success_rate: 0.5, recency: 0.25 });
  });

  it('no executions give a success rate of 0.5; executions give 1 − failure_rate', () => {
    expect(successRate(plan(0, 0))).toBe(0.5);
    expect(successRate(plan(0, 1))).toBe(0.5);
    expect(successRate(plan(4, 0.25))).toBe(0.75);
    expect(successRate(plan(1, 1))).toBe(0);
  });

  it('competences use success / (success + failure), 0.5 when unused', () => {
    expect(successRate(competence(3, 1))).toBe(0.75);
    expect(successRate(competence(0, 0))).toBe(0.5);
  });

  it('embeddings override confidence: applicability = (cos + 1) / 2, clamped', () => {
    expect(applicability(0.2, 0.6)).toBeCloseTo(0.8, 12);
    expect(applicability(0.9, 0)).toBe(0.5);
    expect(applicability(0.9, -1)).toBe(0);
    expect(applicability(0.1, 1.2)).toBe(1);
    expect(applicability(0.3, undefined)).toBe(0.3);
    // Confidence 0.2 but close in embedding space, (0.8 + 0.5 + 1) / 3 = 0.7666…, beats
    // confidence 0.95 far away, (0.25 + 0.5 + 1) / 3 = 0.5833…
    const near = scoreRecord({ confidence: 0.2, last_reinforced_at: daysAgo(0), payload: plan() }, NOW, 0.6);
    const far = scoreRecord({ confidence: 0.95, last_reinforced_at: daysAgo(0), payload: plan() }, NOW, -0.5);
    exactly(near.score, 2.3 / 3);
    exactly(far.score, 1.75 / 3);
    expect(near.score).toBeGreaterThan(far.score);
    expect(near.signals).toMatchObject({ applicability: expect.closeTo(0.8, 12), cosine: 0.6 });
  });

  it('recency halves every 30 days and is 1.0 in the future', () => {
    exactly(recency(daysAgo(30), NOW), 0.5);
    exactly(recency(daysAgo(15), NOW), Math.SQRT1_2);
    exactly(recency(daysAgo(90), NOW), 0.125);
    expect(recency(NOW, NOW)).toBe(1);
    expect(recency(new Date(NOW.getTime() + 86_400_000), NOW)).toBe(1);
  });

  it('a full score: confidence ignored for cosine 0, half the runs failed, just reinforced', () => {
    // (0.5 + 0.5 + 1) / 3 = 2/3
    exactly(scoreRecord({ confidence: 0.9, last_reinforced_at: NOW.toISOString(), payload: plan(2, 0.5) }, NOW, 0).score, 2 / 3);
    // (0.7 + 0.9 + 0.5) / 3 = 0.7
    exactly(scoreRecord({ confidence: 0.7, last_reinforced_at: daysAgo(30), payload: plan(10, 0.1) }, NOW).score, 0.7);
  });

  it('ranks three plans in the hand-computed order', () => {
    const scored = [
      { name: 'stale-executed', ...scoreRecord({ confidence: 0.8, last_reinforced_at: daysAgo(30), payload: plan(5, 0) }, NOW) }, // (0.8+1+0.5)/3 = 0.7666…
      { name: 'fresh-unrun', ...scoreRecord({ confidence: 0.5, last_reinforced_at: daysAgo(0), payload: plan() }, NOW) }, // (0.5+0.5+1)/3 = 0.6666…
      { name: 'fresh-failing', ...scoreRecord({ confidence: 0.9, last_reinforced_at: daysAgo(0), payload: plan(4, 0.75) }, NOW) }, // (0.9+0.25+1)/3 = 0.7166…
    ].sort((a, b) => b.score - a.score);
    expect(scored.map((s) => s.name)).toEqual(['stale-executed', 'fresh-failing', 'fresh-unrun']);
    exactly(scored[0]!.score, 2.3 / 3);
    exactly(scored[1]!.score, 2.15 / 3);
    exactly(scored[2]!.score, 2 / 3);
  });
});

describe('selection confidence', () => {
  it('no candidate → 0 and needs_more', () => {
    expect(selectionConfidence([])).toBe(0);
    expect(select([], 0.7)).toEqual({ confidence: 0, needs_more: true, threshold: 0.7 });
  });

  it('a single candidate → min(score, 1)', () => {
    expect(select([0.8], 0.7)).toEqual({ confidence: 0.8, needs_more: false, threshold: 0.7 });
    expect(select([0.6], 0.7)).toEqual({ confidence: 0.6, needs_more: true, threshold: 0.7 });
    expect(selectionConfidence([1.4])).toBe(1);
  });

  it('a close pair sets needs_more: (0.8 − 0.75) / 0.8 = 0.0625', () => {
    const s = select([0.75, 0.8], 0.7);
    exactly(s.confidence, 0.0625);
    expect(s.needs_more).toBe(true);
  });

  it('a clear winner does not: (1.0 − 0.2) / 1.0 = 0.8, order of input irrelevant', () => {
    const s = select([0.2, 0.1, 1.0], 0.7);
    exactly(s.confidence, 0.8);
    expect(s.needs_more).toBe(false);
  });

  it('the threshold is strict: confidence equal to it is enough', () => {
    expect(select([0.7], 0.7).needs_more).toBe(false);
    expect(select([0.7], 0.71).needs_more).toBe(true);
  });

  it('best ≤ 0 → 0', () => {
    expect(selectionConfidence([0, 0])).toBe(0);
  });
});
