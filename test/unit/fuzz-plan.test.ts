/**
 * Bad-input sweep over plan graph JSON: random mutations of valid plans go through
 * parsePlanGraph, which must never throw and must either accept a plan that can be serialized
 * or report issues with a stable code and a path naming where the problem is.
 */
import fc from 'fast-check';
import { allPaths, type Json, type Path } from '../json-paths';
import { describe, expect, it } from 'vitest';
import { formatPath, parsePlanGraph, PLAN_ERROR_CODES, type PlanParseResult } from '../../src/domain/graph';
import { evaluateExpression, MAX_GUARD_DEPTH } from '../../src/domain/guards';
import { MAX_JSON_DEPTH } from '../../src/domain/json-limits';


/** A valid plan: a DAG over n nodes (edges only go forward), with templates and guards. */
const validPlan = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc
    .record({
      ops: fc.array(fc.constantFrom('noop', 'echo', 'sleep', 'add'), { minLength: n, maxLength: n }),
      // A forward edge a -> a + 1 + gap; a single node has none to draw.
      edges: fc.uniqueArray(
        fc
          .tuple(fc.nat(Math.max(0, n - 2)), fc.nat(n), fc.constantFrom('data', 'control'))
          .map(([a, gap, kind]) => [a, Math.min(n - 1, a + 1 + gap), kind] as const),
        { selector: ([a, b]) => `${a}>${b}`, maxLength: n > 1 ? 2 * n : 0 },
      ),
      guarded: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      intent: fc.string({ minLength: 1, maxLength: 20 }),
    })
    .map(({ ops, edges, guarded, intent }) => {
      const id = (i: number) => `n${i}`;
      const nodes = ops.map((op, i) => {
        const dataPred = edges.find(([, to, kind]) => to === i && kind === 'data');
        return {
          id: id(i),
          op,
          params: dataPred ? { value: `{{nodes.${id(dataPred[0])}.output.x}}`, label: 'from {{inputs.name}}' } : { ms: 1 },
          ...(guarded[i] ? { guards: { or: [{ eq: [{ ref: 'inputs.flag' }, true] }, { not: { exists: { ref: 'inputs.off' } } }] } } : {}),
          policy: { retry: { maximum_attempts: 2 }, heartbeat_timeout: '2s' },
        };
      });
      return {
        kind: 'plan_graph',
        plan_id: 'fuzz-plan',
        intent,
        constraints: { failure_policy: 'continue', max_parallelism: 4 },
        inputs_schema: { type: 'object' },
        nodes,
        edges: edges.map(([a, b, kind]) => ({ from: id(a), to: id(b), kind })),
      } as Record<string, Json>;
    }),
);


function parentOf(root: Json, path: Path): Record<string | number, Json> {
  return path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string | number, Json>)[k], root) as Record<string | number, Json>;
}

function setAt(root: Json, path: Path, value: Json): void {
  parentOf(root, path)[path[path.length - 1]!] = value;
}

function dropAt(root: Json, path: Path): void {
  const parent = parentOf(root, path);
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
}

/** A value nested `depth` levels deep, built without recursion. */
function deeplyNested(depth: number, shape: 'object' | 'array' | 'not'): Json {
  let v: Json = shape === 'not' ? { ref: 'inputs.x' } : 1;
  for (let i = 0; i < depth; i++) v = shape === 'object' ? { a: v } : shape === 'array' ? [v] : { not: v };
  return v;
}

/** What every parse result must satisfy, whatever the input. */
function expectWellFormed(input: Json, result: PlanParseResult): void {
  if (result.ok) {
    expect(() => JSON.stringify(result.plan)).not.toThrow();
    return;
  }
  expect(result.issues.length).toBeGreaterThan(0);
  const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
  for (const issue of result.issues) {
    expect(PLAN_ERROR_CODES).toContain(issue.code);
    expect(typeof issue.path).toBe('string');
    if (isObject) expect(issue.path).not.toBe('');
    expect(issue.message.length).toBeGreaterThan(0);
  }
}

function parseChecked(input: Json): PlanParseResult {
  let result: PlanParseResult | undefined;
  expect(() => (result = parsePlanGraph(input))).not.toThrow();
  // Stable: the same input always yields the same answer.
  expect(parsePlanGraph(input)).toEqual(result);
  expectWellFormed(input, result!);
  return result!;
}

const pick = <T>(items: readonly T[]) => fc.nat({ max: Math.max(0, items.length - 1) }).map((i) => items[i]!);
const clone = (v: Json) => structuredClone(v) as Record<string, Json>;

describe('fuzz: plan graph JSON through parsePlanGraph', () => {
  it('accepts every generated valid plan', () => {
    fc.assert(fc.property(validPlan, (plan) => {
      expect(parseChecked(plan).ok).toBe(true);
    }));
  });

  it('never throws on a dropped field', () => {
    fc.assert(
      fc.property(validPlan.chain((plan) => fc.tuple(fc.constant(plan), pick(allPaths(plan)))), ([plan, path]) => {
        const input = clone(plan);
        dropAt(input, path);
        parseChecked(input);
      }),
    );
  });

  it('never throws on a value of the wrong type anywhere', () => {
    fc.assert(
      fc.property(
        validPlan.chain((plan) => fc.tuple(fc.constant(plan), pick(allPaths(plan)), fc.oneof(fc.anything(), fc.string(), fc.double(), fc.constant(null)))),
        ([plan, path, value]) => {
          const input = clone(plan);
          setAt(input, path, value);
          parseChecked(input);
        },
      ),
    );
  });

  it('names the field whose type is wrong', () => {
    const typedLeaves: Array<(p: Record<string, Json>) => Path> = [
      () => ['plan_id'],
      () => ['intent'],
      () => ['kind'],
      () => ['nodes', 0, 'id'],
      () => ['nodes', 0, 'op'],
      () => ['nodes', 0, 'policy', 'retry', 'maximum_attempts'],
      () => ['constraints', 'max_parallelism'],
      () => ['constraints', 'failure_policy'],
    ];
    fc.assert(
      fc.property(validPlan, pick(typedLeaves), fc.oneof(fc.constant({ nested: true }), fc.constant([1, 2]), fc.constant(-3.5)), (plan, leaf, value) => {
        const input = clone(plan);
        const path = leaf(input);
        setAt(input, path, value);
        const result = parseChecked(input);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.issues.map((i) => i.path)).toContain(formatPath(path));
      }),
    );
  });

  it('reports cycles, self edges and dangling edges with their code and edge path', () => {
    fc.assert(
      fc.property(validPlan, fc.constantFrom('cycle', 'self', 'dangling'), fc.string(), (plan, kind, ghost) => {
        const input = clone(plan);
        const nodes = input.nodes as Array<{ id: string }>;
        const edges = input.edges as Array<{ from: string; to: string; kind: string }>;
        const first = nodes[0]!.id;
        const last = nodes[nodes.length - 1]!.id;
        if (kind === 'cycle' && edges.length > 0) edges.push({ from: edges[0]!.to, to: edges[0]!.from, kind: 'control' });
        else if (kind === 'self' || (kind === 'cycle' && edges.length === 0)) edges.push({ from: last, to: last, kind: 'control' });
        else edges.push({ from: first, to: `ghost:${ghost}`, kind: 'data' });
        const result = parseChecked(input);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const at = `edges[${edges.length - 1}]`;
        if (kind === 'dangling') expect(result.issues).toContainEqual(expect.objectContaining({ code: 'dangling_edge', path: `${at}.to` }));
        else if (kind === 'self' || edges.length === 1) expect(result.issues).toContainEqual(expect.objectContaining({ code: 'self_edge', path: at }));
        else expect(result.issues.map((i) => i.code)).toContain('cycle');
      }),
    );
  });

  it('refuses deep nesting anywhere with a path, never a stack overflow', () => {
    fc.assert(
      fc.property(
        validPlan.chain((plan) => fc.tuple(fc.constant(plan), pick(allPaths(plan)))),
        fc.constantFrom(MAX_JSON_DEPTH + 1, 1_000, 10_000, 200_000),
        fc.constantFrom('object', 'array', 'not') as fc.Arbitrary<'object' | 'array' | 'not'>,
        ([plan, path], depth, shape) => {
          const input = clone(plan);
          setAt(input, path, deeplyNested(depth, shape));
          parseChecked(input);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses oversized and malformed whole inputs', () => {
    const wide = { kind: 'plan_graph', plan_id: 'p', intent: 'i', nodes: Array.from({ length: 5_000 }, () => ({ id: 'same', op: 'noop' })) };
    const wideResult = parseChecked(wide);
    expect(!wideResult.ok && wideResult.issues.filter((i) => i.code === 'duplicate_node')).toHaveLength(4_999);
    fc.assert(fc.property(fc.anything(), (value) => void parseChecked(value)));
  });
});

describe('guard nesting is bounded', () => {
  const plan = (guards: Json) => ({ kind: 'plan_graph', plan_id: 'p', intent: 'i', nodes: [{ id: 'a', op: 'noop', guards }] });

  it.each([MAX_GUARD_DEPTH + 1, 1_000, 10_000, 100_000])('refuses a guard nested %i deep with invalid_guard', (depth) => {
    for (const guard of [deeplyNested(depth, 'not'), { and: [deeplyNested(depth, 'array')] }, { eq: [deeplyNested(depth, 'object'), 1] }]) {
      const result = parseChecked(plan(guard));
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.issues).toHaveLength(1);
        expect(result.issues[0]).toMatchObject({ code: 'invalid_guard', path: expect.stringMatching(/^nodes\[0\]\.guards/) });
      }
    }
  });

  it('accepts a guard exactly at the limit', () => {
    expect(parseChecked(plan(deeplyNested(MAX_GUARD_DEPTH, 'not'))).ok).toBe(true);
  });

  it('evaluates an unchecked guard 10,000 deep without overflowing the stack', () => {
    const scope = { inputs: { x: 1 }, nodes: {} };
    expect(() => evaluateExpression(deeplyNested(10_000, 'not'), scope, [])).not.toThrow();
    // Within the limit evaluation is unchanged: an even number of `not`s around a truthy ref.
    expect(evaluateExpression(deeplyNested(MAX_GUARD_DEPTH - 2, 'not'), scope, [])).toBe(true);
  });
});
