import { describe, expect, it } from 'vitest';
import { validatePlanGraph, type PlanIssue } from '../../src/domain/graph';
import { chunkRanges, failedItemsMessage, fitChunkResults, itemParams, resolveForEach, type ItemResult } from '../../src/domain/map-node';
import { jsonBytes } from '../../src/domain/payload-size';
import { planToMermaid } from '../../src/domain/plan-diagram';
import { planGraphPayloadSchema, type MemoryRecord, type PlanGraphPayload, type PlanGraphPayloadInput, type Sensitivity } from '../../src/domain/records';
import { parseRef, resolveTemplates } from '../../src/domain/refs';
import { subPlanOutput, walkSubPlans } from '../../src/domain/sub-plan';

type Spec = Pick<PlanGraphPayloadInput, 'nodes'> & Partial<PlanGraphPayloadInput>;
const plan = (spec: Spec): PlanGraphPayload => planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: 'p', intent: 'test', ...spec });
const issuesOf = (spec: Spec) => validatePlanGraph(plan(spec), { knownOps: new Set(['noop', 'echo']) });
const codes = (issues: PlanIssue[]) => issues.map((i) => `${i.code} at ${i.path}`);
const data = (from: string, to: string) => ({ from, to, kind: 'data' as const });

describe('map node validation', () => {
  it('accepts a for_each over a data predecessor or the inputs, with item and index in params', () => {
    expect(
      issuesOf({
        nodes: [
          { id: 'list', op: 'echo' },
          { id: 'm', op: 'echo', for_each: '{{ nodes.list.output.items }}', params: { x: '{{item.a}}', i: '{{index}}', all: '{{item}}' } },
          { id: 'n', op: 'echo', for_each: '{{inputs.list}}', params: { s: 'item {{index}}: {{item}}' } },
        ],
        edges: [data('list', 'm')],
      }),
    ).toEqual([]);
  });

  it('refuses a for_each that is not one reference to inputs or an output', () => {
    for (const forEach of ['nodes.list.output.items', 'x {{inputs.list}}', '{{nodes.list.state}}', '{{item}}', '{{index}}', '{{inputs.a}}{{inputs.b}}']) {
      expect(codes(issuesOf({ nodes: [{ id: 'list', op: 'echo' }, { id: 'm', op: 'echo', for_each: forEach }], edges: [data('list', 'm')] }))).toEqual([
        'invalid_for_each at nodes[1].for_each',
      ]);
    }
  });

  it('refuses a for_each over a node that is not a data predecessor', () => {
    const issues = issuesOf({
      nodes: [{ id: 'list', op: 'echo' }, { id: 'm', op: 'echo', for_each: '{{nodes.list.output}}' }],
      edges: [{ from: 'list', to: 'm', kind: 'control' }],
    });
    expect(codes(issues)).toEqual(['undeclared_data_ref at nodes[1].for_each']);
    expect(issues[0]!.message).toContain('no data edge list -> m');
  });

  it('refuses {{item}} and {{index}} outside a map node', () => {
    expect(codes(issuesOf({ nodes: [{ id: 'a', op: 'echo', params: { x: '{{item.a}}', y: ['{{index}}'] } }] }))).toEqual([
      'item_ref_outside_map at nodes[0].params.x',
      'item_ref_outside_map at nodes[0].params.y[0]',
    ]);
  });
});

describe('map node helpers', () => {
  const scope = { inputs: { list: [{ a: 1 }, { a: 2 }], n: 5 }, nodes: {} };
  it('resolves the list, or says what it got instead', () => {
    expect(resolveForEach('{{inputs.list}}', scope, [])).toEqual({ items: [{ a: 1 }, { a: 2 }] });
    expect(resolveForEach('{{inputs.n}}', scope, [])).toEqual({ message: 'for_each {{inputs.n}} resolved to number, not an array' });
    expect(resolveForEach('{{inputs.none}}', scope, [])).toEqual({ message: 'for_each {{inputs.none}} resolved to nothing, not an array' });
  });

  it('resolves item, item paths and index in each item\'s params', () => {
    expect(itemParams({ a: '{{item.a}}', i: '{{index}}', s: '#{{index}} of {{inputs.n}}', whole: '{{item}}' }, scope, [], [{ a: 1 }, { a: 2 }])).toEqual([
      { a: 1, i: 0, s: '#0 of 5', whole: { a: 1 } },
      { a: 2, i: 1, s: '#1 of 5', whole: { a: 2 } },
    ]);
    expect(parseRef('item.a.b', [])).toEqual({ root: 'item', path: ['a', 'b'] });
    expect(resolveTemplates('{{item}}', scope, [])).toBeUndefined();
  });

  it('splits a list into chunks in order', () => {
    expect(chunkRanges(0, 1000)).toEqual([]);
    expect(chunkRanges(2500, 1000)).toEqual([[0, 1000], [1000, 2000], [2000, 2500]]);
  });

  it("fails the items with the largest outputs until a chunk's results fit, and leaves the rest as they were", () => {
    const item = (text: string): ItemResult => ({ ok: true, output: { text }, attempt: 1 });
    const failed: ItemResult = { ok: false, error: { type: 'boom', message: 'bad' } };
    const results = [item('a'.repeat(1200)), null, item('b'.repeat(2000)), failed, item('c'.repeat(2000)), item('d'.repeat(400))];
    expect(fitChunkResults(results, 2000, 10_000)).toEqual(results);
    const limit = jsonBytes(results) - 2500;
    const fitted = fitChunkResults(results, 2000, limit);
    expect(jsonBytes(fitted)).toBeLessThanOrEqual(limit);
    // The two 2,000-character outputs (ties in item order), not the smaller ones before or after them.
    expect(fitted.map((r) => (r === null ? null : r.ok ? 'ok' : r.error.type))).toEqual(['ok', null, 'output_too_large', 'boom', 'output_too_large', 'ok']);
    const error = (fitted[2] as Extract<ItemResult, { ok: false }>).error;
    expect(error.message).toContain("item 2002's output is 2011 bytes");
    expect(error.message).toContain(`the outputs of items 2000–2005 are ${jsonBytes(results)} bytes`);
    expect(results[2]).toEqual(item('b'.repeat(2000)));
    // No output is swapped for a larger error, even when the results then stay over the limit.
    expect(fitChunkResults([item('x'), item('y')], 0, 10)).toEqual([item('x'), item('y')]);
    // Then the longest error messages are cut, each saying how long it was.
    const verbose = (n: number): ItemResult => ({ ok: false, error: { type: 'verbose', message: 'm'.repeat(n) } });
    const messages = fitChunkResults([verbose(8000), verbose(300), verbose(6000)], 0, 8000).map((r) => (r as Extract<ItemResult, { ok: false }>).error.message);
    expect(messages.map((m) => m.length <= 500)).toEqual([true, true, false]);
    expect(messages[0]).toContain('[truncated: 8000 bytes in all]');
  });

  it('lists failed indexes, at most 100', () => {
    expect(failedItemsMessage([3, 17], 20, { type: 'boom', message: 'bad' })).toBe('2 of 20 items failed: [3, 17]; item 3: boom: bad');
    const many = Array.from({ length: 150 }, (_, i) => i);
    expect(failedItemsMessage(many, 200)).toMatch(/^150 of 200 items failed: \[0, 1, .*, 99, … \(50 more\)\]$/);
  });
});

describe('sub-plans', () => {
  const call = (id: string, planId: unknown, extra: Record<string, unknown> = {}) => ({ id, op: 'plan', params: { plan_id: planId }, ...extra });
  const record = (id: string, nodes: Spec['nodes'], sensitivity: Sensitivity = 'low', constraints = {}): MemoryRecord =>
    ({ id, type: 'plan_graph', status: 'active', revision: 3, sensitivity, scope: '', payload: plan({ nodes, constraints }) }) as unknown as MemoryRecord;

  it('validates the shape of a sub-plan node; op "plan" is no unknown op', () => {
    expect(issuesOf({ nodes: [call('ok', 'id-1', { params: { plan_id: 'id-1', inputs: { x: 1 } } })] })).toEqual([]);
    expect(codes(issuesOf({ nodes: [call('a', undefined), call('b', '{{inputs.id}}'), call('c', 'x', { for_each: '{{inputs.l}}' })] }))).toEqual([
      'invalid_sub_plan at nodes[0].params.plan_id',
      'invalid_sub_plan at nodes[1].params.plan_id',
      'invalid_sub_plan at nodes[2].for_each',
    ]);
    expect(codes(issuesOf({ nodes: [call('a', 'x', { params: { plan_id: 'x', inputs: [1] } })] }))).toEqual(['invalid_sub_plan at nodes[0].params.inputs']);
  });

  it('pins the direct sub-plans and walks the nested ones', async () => {
    const store = new Map([
      ['B', record('B', [call('to_c', 'C')])],
      ['C', record('C', [{ id: 'n', op: 'noop' }])],
    ]);
    const walk = await walkSubPlans({ record_id: 'A', payload: { nodes: plan({ nodes: [call('b1', 'B'), call('b2', 'B')] }).nodes } }, async (id) => store.get(id));
    expect(walk).toEqual({ ok: true, pins: { b1: expect.objectContaining({ record_id: 'B', revision: 3 }), b2: expect.objectContaining({ record_id: 'B' }) } });
  });

  it('pins a plan without its searchable text and metrics, leaving the stored record as it was', async () => {
    const stored = record('B', [{ id: 'n', op: 'noop' }]);
    const payload = stored.payload as PlanGraphPayload;
    Object.assign(payload, { description: 'does B', examples: ['run b', 'do the b thing'] });
    const walk = await walkSubPlans({ record_id: 'A', payload: { nodes: plan({ nodes: [call('b', 'B')] }).nodes } }, async () => stored);
    const { description, examples, metrics, ...runnable } = payload;
    expect(walk).toEqual({ ok: true, pins: { b: { record_id: 'B', revision: 3, payload: runnable } } });
    expect({ description, examples }).toEqual({ description: 'does B', examples: ['run b', 'do the b thing'] });
    expect(metrics).toBeDefined();
  });

  it('refuses a cycle, including one back to an ancestor run', async () => {
    const store = new Map([
      ['B', record('B', [call('to_c', 'C')])],
      ['C', record('C', [call('to_b', 'B')])],
    ]);
    const root = (nodes: Spec['nodes']) => ({ record_id: 'A', payload: { nodes: plan({ nodes }).nodes } });
    expect(await walkSubPlans(root([call('b', 'B')]), async (id) => store.get(id))).toEqual({
      ok: false,
      type: 'sub_plan_cycle',
      message: 'plans call each other in a cycle: B -> C -> B',
    });
    const back = new Map([['B', record('B', [call('to_root', 'R')])]]);
    expect(await walkSubPlans(root([call('b', 'B')]), async (id) => back.get(id), { ancestors: ['R'] })).toMatchObject({
      type: 'sub_plan_cycle',
      message: 'plans call each other in a cycle: R -> A -> B -> R',
    });
  });

  it('refuses what the caller cannot see (not found) or may not run (forbidden)', async () => {
    const store = new Map([
      ['hidden', record('hidden', [{ id: 'n', op: 'noop' }], 'high')],
      ['redacted', record('redacted', [{ id: 'n', op: 'noop' }], 'medium')],
      ['auth', record('auth', [{ id: 'n', op: 'noop' }], 'low', { requires_authenticated: true })],
    ]);
    const trust = { max_sensitivity: 'low' as const, authenticated: false };
    const typeFor = async (target: string) => {
      const walk = await walkSubPlans({ record_id: 'A', payload: { nodes: plan({ nodes: [call('c', target)] }).nodes } }, async (id) => store.get(id), { trust });
      return walk.ok ? 'ok' : walk.type;
    };
    expect(await typeFor('hidden')).toBe('sub_plan_not_found');
    expect(await typeFor('missing')).toBe('sub_plan_not_found');
    expect(await typeFor('redacted')).toBe('sub_plan_forbidden');
    expect(await typeFor('auth')).toBe('sub_plan_forbidden');
  });

  it('condenses a child result into outputs by node id', () => {
    const out = subPlanOutput('wf/sub', { plan_record_id: 'B', plan_revision: 2, state: 'succeeded', nodes: [{ id: 'z', output: 1 }, { id: 'a' }, { id: 'b', output: { v: 2 } }] });
    expect(out).toEqual({ workflow_id: 'wf/sub', plan_record_id: 'B', plan_revision: 2, state: 'succeeded', outputs: { b: { v: 2 }, z: 1 } });
  });
});

describe('diagram', () => {
  it('draws map nodes as hexagons and sub-plans as subroutines', () => {
    const text = planToMermaid(
      plan({
        nodes: [{ id: 'list', op: 'echo' }, { id: 'each', op: 'echo', for_each: '{{nodes.list.output.items}}' }, { id: 'sub', op: 'plan', params: { plan_id: 'P-1' } }],
        edges: [data('list', 'each')],
      }),
    );
    expect(text).toBe(
      'flowchart TD\n  n0{{"each<br/>echo<br/>for each nodes.list.output.items"}}\n  n1["list<br/>echo"]\n  n2[["sub<br/>plan P-1"]]\n  n1 -->|data| n0\n',
    );
  });
});
