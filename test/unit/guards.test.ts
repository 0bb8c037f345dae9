import { describe, expect, it } from 'vitest';
import { checkGuard, evaluateExpression, guardAllows, MAX_GUARD_DEPTH } from '../../src/domain/guards';
import type { RefScope } from '../../src/domain/refs';

const ids = ['a', 'b.c'];
const scope: RefScope = {
  inputs: { n: 5, name: 'ada', tags: ['x', 'y'], flag: false, nested: { deep: [1, { v: 'ok' }] } },
  nodes: { a: { state: 'succeeded', output: { count: 3, list: [1, 2] } }, 'b.c': { state: 'skipped' } },
};
const allows = (expr: unknown) => guardAllows(expr, scope, ids);
const value = (expr: unknown) => evaluateExpression(expr, scope, ids);

describe('guard evaluation', () => {
  it('treats the empty object as "always run"', () => {
    expect(allows({})).toBe(true);
  });

  it('compares with eq and ne by deep JSON equality', () => {
    expect(allows({ eq: [{ ref: 'inputs.n' }, 5] })).toBe(true);
    expect(allows({ eq: [{ ref: 'inputs.n' }, '5'] })).toBe(false);
    expect(allows({ eq: [{ ref: 'nodes.a.output.list' }, { literal: [1, 2] }] })).toBe(true);
    expect(allows({ eq: [{ literal: { a: 1, b: 2 } }, { literal: { b: 2, a: 1 } }] })).toBe(true);
    expect(allows({ ne: [{ ref: 'inputs.name' }, 'bob'] })).toBe(true);
    expect(allows({ ne: [{ ref: 'inputs.name' }, 'ada'] })).toBe(false);
  });

  it('orders numbers and strings with gt, gte, lt, lte, and never across types', () => {
    expect([allows({ gt: [{ ref: 'inputs.n' }, 4] }), allows({ gt: [{ ref: 'inputs.n' }, 5] })]).toEqual([true, false]);
    expect([allows({ gte: [{ ref: 'inputs.n' }, 5] }), allows({ gte: [{ ref: 'inputs.n' }, 6] })]).toEqual([true, false]);
    expect([allows({ lt: [{ ref: 'inputs.n' }, 6] }), allows({ lt: [{ ref: 'inputs.n' }, 5] })]).toEqual([true, false]);
    expect([allows({ lte: [{ ref: 'inputs.n' }, 5] }), allows({ lte: [{ ref: 'inputs.n' }, 4] })]).toEqual([true, false]);
    expect(allows({ lt: ['abc', 'abd'] })).toBe(true);
    expect(allows({ lt: ['4', 5] })).toBe(false);
    expect(allows({ gte: [null, 0] })).toBe(false);
  });

  it('combines with and, or, not', () => {
    expect(allows({ and: [true, { gt: [{ ref: 'inputs.n' }, 1] }] })).toBe(true);
    expect(allows({ and: [true, false] })).toBe(false);
    expect(allows({ or: [false, { ref: 'inputs.flag' }, 'yes'] })).toBe(true);
    expect(allows({ or: [false, 0, ''] })).toBe(false);
    expect(allows({ not: { ref: 'inputs.flag' } })).toBe(true);
    expect(allows({ not: { ref: 'inputs.missing' } })).toBe(true);
  });

  it('tests presence with exists (null and missing are absent, false and 0 are present)', () => {
    expect(allows({ exists: { ref: 'inputs.flag' } })).toBe(true);
    expect(allows({ exists: { ref: 'inputs.nested.deep.1.v' } })).toBe(true);
    expect(allows({ exists: { ref: 'inputs.missing' } })).toBe(false);
    expect(allows({ exists: null })).toBe(false);
  });

  it('tests membership with in over arrays and substrings', () => {
    expect(allows({ in: ['y', { ref: 'inputs.tags' }] })).toBe(true);
    expect(allows({ in: ['z', { ref: 'inputs.tags' }] })).toBe(false);
    expect(allows({ in: [2, { ref: 'nodes.a.output.list' }] })).toBe(true);
    expect(allows({ in: ['da', { ref: 'inputs.name' }] })).toBe(true);
    expect(allows({ in: [1, 'a1'] })).toBe(false);
  });

  it('reads upstream states and outputs, including node ids with dots', () => {
    expect(allows({ eq: [{ ref: 'nodes.a.state' }, 'succeeded'] })).toBe(true);
    expect(allows({ eq: [{ ref: 'nodes.b.c.state' }, 'skipped'] })).toBe(true);
    expect(allows({ gt: [{ ref: 'nodes.a.output.count' }, 2] })).toBe(true);
  });

  it('evaluates literals and arrays of expressions to JSON values', () => {
    expect(value({ literal: { ref: 'inputs.n' } })).toEqual({ ref: 'inputs.n' });
    expect(value([{ ref: 'inputs.n' }, 'x', { not: true }])).toEqual([5, 'x', false]);
    expect(value('text')).toBe('text');
    expect(allows(0)).toBe(false);
  });

  it('is a pure function of its scope: the same inputs always give the same answer', () => {
    const expr = { and: [{ in: ['x', { ref: 'inputs.tags' }] }, { gt: [{ ref: 'nodes.a.output.count' }, 1] }] };
    const results = Array.from({ length: 5 }, () => allows(expr));
    expect(new Set(results)).toEqual(new Set([true]));
  });
});

describe('guard checking', () => {
  it('accepts every operator and returns the refs used', () => {
    const expr = {
      and: [
        { eq: [{ ref: 'inputs.a' }, 1] },
        { ne: [1, 2] },
        { gt: [1, 0] },
        { gte: [1, 1] },
        { lt: [0, 1] },
        { lte: [1, 1] },
        { or: [{ not: { exists: { ref: 'nodes.x.output.y' } } }, { in: ['a', { literal: ['a'] }] }] },
      ],
    };
    expect(checkGuard(expr)).toEqual({ problems: [], refs: ['inputs.a', 'nodes.x.output.y'] });
  });

  it('reports each malformed part with its path', () => {
    const { problems } = checkGuard(
      { or: [{ eq: [1, 2, 3] }, { and: [] }, { ref: 7 }, { ref: 'env.HOME' }, { a: 1, b: 2 }, { xor: [true, false] }, { in: 'ab' }] },
      'g',
    );
    expect(problems.map((p) => p.path)).toEqual(['g.or[0].eq', 'g.or[1].and', 'g.or[2].ref', 'g.or[3].ref', 'g.or[4]', 'g.or[5].xor', 'g.or[6].in']);
  });

  it(`bounds nesting at ${MAX_GUARD_DEPTH} levels`, () => {
    const nest = (depth: number): unknown => (depth === 0 ? true : { not: nest(depth - 1) });
    expect(checkGuard(nest(MAX_GUARD_DEPTH)).problems).toEqual([]);
    const deep = checkGuard(nest(MAX_GUARD_DEPTH + 1)).problems;
    expect(deep).toHaveLength(1);
    expect(deep[0]!.message).toContain(String(MAX_GUARD_DEPTH));
  });
});
