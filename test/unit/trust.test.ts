import { describe, expect, it } from 'vitest';
import { redactedRecordSchema, SENSITIVITIES, type MemoryRecord, type Sensitivity } from '../../src/domain/records';
import { assertWritable, redact, runnableBy, scopeAllowed, sensitivityVisibility, visibility } from '../../src/domain/trust';

describe('trust by sensitivity, at every boundary', () => {
  // Rows: caller max_sensitivity; columns: record sensitivity public, low, medium, high, hyper.
  const V = 'visible', R = 'redacted', I = 'invisible';
  const expected: Record<Sensitivity, string[]> = {
    public: [V, R, I, I, I],
    low: [V, V, R, I, I],
    medium: [V, V, V, R, I],
    high: [V, V, V, V, R],
    hyper: [V, V, V, V, V],
  };
  for (const max of SENSITIVITIES) {
    it(`a caller cleared for "${max}"`, () => {
      expect(SENSITIVITIES.map((s) => sensitivityVisibility(s, max))).toEqual(expected[max]);
    });
  }
});

describe('trust fails closed on a level off the scale', () => {
  const offScale = 'secret' as Sensitivity;
  it('a record with an unknown level is invisible to every clearance', () => {
    expect(SENSITIVITIES.map((max) => sensitivityVisibility(offScale, max))).toEqual(SENSITIVITIES.map(() => 'invisible'));
  });

  it('a clearance off the scale sees nothing and runs nothing', () => {
    expect(SENSITIVITIES.map((s) => sensitivityVisibility(s, offScale))).toEqual(SENSITIVITIES.map(() => 'invisible'));
    expect(runnableBy({ constraints: { failure_policy: 'fail_fast' } }, { max_sensitivity: offScale, authenticated: true })).toBe(false);
  });

  it('a plan handling data of an unknown level runs for nobody', () => {
    expect(runnableBy({ constraints: { failure_policy: 'fail_fast', max_sensitivity: offScale } }, { max_sensitivity: 'hyper', authenticated: true })).toBe(false);
  });
});

describe('trust by scope', () => {
  it('"" is open to everyone; no scopes means any; otherwise the scope must be listed', () => {
    expect(scopeAllowed('', ['a'])).toBe(true);
    expect(scopeAllowed('', [])).toBe(true);
    expect(scopeAllowed('team-a', undefined)).toBe(true);
    expect(scopeAllowed('team-a', ['team-a', 'team-b'])).toBe(true);
    expect(scopeAllowed('team-c', ['team-a', 'team-b'])).toBe(false);
    expect(scopeAllowed('team-a', [])).toBe(false);
  });

  it('a scope mismatch hides a record whatever its sensitivity', () => {
    const trust = { max_sensitivity: 'hyper' as const, authenticated: true, scopes: ['team-a'] };
    expect(visibility({ sensitivity: 'public', scope: 'team-b' }, trust)).toBe('invisible');
    expect(visibility({ sensitivity: 'public', scope: 'team-a' }, trust)).toBe('visible');
    expect(visibility({ sensitivity: 'low', scope: '' }, { max_sensitivity: 'public', authenticated: false, scopes: ['x'] })).toBe('redacted');
  });
});

describe('redaction', () => {
  const record: MemoryRecord = {
    id: '00000000-0000-4000-8000-000000000001',
    type: 'plan_graph',
    sensitivity: 'medium',
    confidence: 0.7,
    salience: 0.3,
    scope: 'team-a',
    tags: ['t'],
    status: 'active',
    revision: 3,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-02T00:00:00.000Z',
    last_reinforced_at: '2025-01-03T00:00:00.000Z',
    payload: {
      kind: 'plan_graph',
      plan_id: 'secret-plan',
      version: '1',
      intent: 'secret intent',
      constraints: { failure_policy: 'fail_fast' },
      inputs_schema: {},
      outputs_schema: {},
      nodes: [{ id: 'a', op: 'http_request', params: { url: 'https://secret' }, guards: {} }],
      edges: [],
      metrics: { execution_count: 0, failure_rate: 0, avg_latency_ms: 0, last_executed_at: null },
    },
    relations: [{ predicate: 'derived_from', target_id: '00000000-0000-4000-8000-000000000002', weight: 1 }],
  };

  it('keeps exactly ids, type, sensitivity, confidence, scope, tags and timestamps', () => {
    expect(redact(record)).toEqual({
      id: record.id,
      type: 'plan_graph',
      sensitivity: 'medium',
      confidence: 0.7,
      scope: 'team-a',
      tags: ['t'],
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-02T00:00:00.000Z',
      last_reinforced_at: '2025-01-03T00:00:00.000Z',
    });
    expect(JSON.stringify(redact(record))).not.toContain('secret');
  });

  it('the redacted schema refuses any extra field', () => {
    expect(redactedRecordSchema.safeParse(redact(record)).success).toBe(true);
    expect(redactedRecordSchema.safeParse({ ...redact(record), payload: record.payload }).success).toBe(false);
  });
});

describe('who may run a plan', () => {
  const trust = (max: Sensitivity, authenticated: boolean) => ({ max_sensitivity: max, authenticated });
  it('requires_authenticated needs an authenticated caller', () => {
    expect(runnableBy({ constraints: { failure_policy: 'fail_fast', requires_authenticated: true } }, trust('hyper', false))).toBe(false);
    expect(runnableBy({ constraints: { failure_policy: 'fail_fast', requires_authenticated: true } }, trust('public', true))).toBe(true);
  });
  it('max_sensitivity needs a caller cleared at least that high', () => {
    const c = { constraints: { failure_policy: 'fail_fast' as const, max_sensitivity: 'medium' as const } };
    expect(runnableBy(c, trust('low', true))).toBe(false);
    expect(runnableBy(c, trust('medium', false))).toBe(true);
    expect(runnableBy({ constraints: { failure_policy: 'fail_fast' } }, trust('public', false))).toBe(true);
  });
});

describe('who may write a record', () => {
  const caller = { max_sensitivity: 'medium' as Sensitivity, authenticated: true, scopes: ['team-a'] };
  it('a trusted caller (no trust context) may write anything', () => {
    expect(() => assertWritable({ sensitivity: 'hyper', scope: 'other' }, undefined)).not.toThrow();
  });
  it('only what the caller could read in full: not even one level above (redacted)', () => {
    expect(() => assertWritable({ sensitivity: 'medium', scope: 'team-a' }, caller)).not.toThrow();
    expect(() => assertWritable({ sensitivity: 'high', scope: 'team-a' }, caller)).toThrow(/cannot write a "high" plan/);
  });
  it('a scope not granted is refused', () => {
    expect(() => assertWritable({ sensitivity: 'low', scope: 'team-b' }, caller)).toThrow(/scope "team-b"/);
  });
  it('a level off the scale is refused, not ranked lowest', () => {
    expect(() => assertWritable({ sensitivity: 'secret' as Sensitivity, scope: '' }, caller)).toThrow(/forbidden|cannot write/);
  });
});
