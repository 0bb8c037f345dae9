import { describe, expect, it } from 'vitest';
import { indexGraph, topologicalOrder } from '../../src/domain/graph';
import {
  analysePlan,
  carriedStateBound,
  countStates,
  maxCarriedOutputs,
  partitionSlice,
  STATE_CODES,
  stateOfCode,
  codeOfState,
} from '../../src/domain/partitioning';
import type { PlanEdge, PlanNode } from '../../src/domain/records';

const node = (id: string, extra: Partial<PlanNode> = {}): PlanNode => ({ id, op: 'echo', params: {}, guards: {}, ...extra }) as PlanNode;
const data = (from: string, to: string): PlanEdge => ({ from, to, kind: 'data' });
const control = (from: string, to: string): PlanEdge => ({ from, to, kind: 'control' });
const ids = (n: number, p = 'n') => Array.from({ length: n }, (_, i) => `${p}${String(i).padStart(3, '0')}`);

function chain(n: number, kind: 'data' | 'control') {
  const names = ids(n);
  return { nodes: names.map((id) => node(id)), edges: names.slice(1).map((id, i) => ({ from: names[i]!, to: id, kind })) };
}

function fan(width: number) {
  const mids = ids(width, 'm');
  return {
    nodes: [node('a'), ...mids.map((id) => node(id)), node('z')],
    edges: mids.flatMap((m) => [data('a', m), control(m, 'z')]),
  };
}

describe('partitioning a plan', () => {
  it('cuts the topological order into consecutive partitions', () => {
    const plan = analysePlan(chain(10, 'data'), 4);
    expect(plan.partitions).toBe(3);
    expect(plan.order).toEqual(ids(10));
    expect(partitionSlice(plan, 2, 'p'.repeat(10)).nodes.map((n) => n.id)).toEqual(['n008', 'n009']);
  });

  it('carries a data output only to the partition that reads it', () => {
    const plan = analysePlan(chain(10, 'data'), 4);
    expect(maxCarriedOutputs(plan)).toBe(1);
    const first = partitionSlice(plan, 0, 'p'.repeat(10));
    expect(first.carry).toEqual(['n003']);
    const second = partitionSlice(plan, 1, 'ssssppppp');
    expect(second.external.map((e) => [e.node.id, e.code])).toEqual([['n003', 's']]);
    expect(second.edges).toContainEqual(data('n003', 'n004'));
    expect(second.carry).toEqual(['n007']);
  });

  it('carries no output across a control edge unless a ref reads it', () => {
    expect(maxCarriedOutputs(analysePlan(chain(10, 'control'), 4))).toBe(0);
    const plan = chain(6, 'control');
    plan.nodes[4] = node('n004', { params: { v: '{{nodes.n003.output.x}}' } });
    expect(analysePlan(plan, 4).lastReader.get('n003')).toBe(1);
  });

  it("loads a predecessor whose state a ref reads, but carries no output for it", () => {
    // n004 (partition 1) checks how n000 and n001 (partition 0) ended, and reads n002's output.
    const plan = chain(6, 'control');
    plan.edges.push(control('n000', 'n004'), control('n001', 'n004'), control('n002', 'n004'));
    plan.nodes[4] = node('n004', {
      params: { note: 'after {{nodes.n001.state}}', v: '{{nodes.n002.output.x}}' },
      guards: { eq: [{ ref: 'nodes.n000.state' }, 'succeeded'] } as PlanNode['guards'],
    });
    const analysed = analysePlan(plan, 4);
    expect([...analysed.lastReader.keys()]).toEqual(['n002']);
    expect(maxCarriedOutputs(analysed)).toBe(1);
    expect(partitionSlice(analysed, 0, 'pppppp').carry).toEqual(['n002']);
    // All succeeded: n003 (control, not read) stays out; the three n004 reads come along.
    const second = partitionSlice(analysed, 1, 'sskspp');
    expect(second.external.map((e) => [e.node.id, e.code]).sort()).toEqual([['n000', 's'], ['n001', 's'], ['n002', 'k']]);
  });

  it('keeps the fan source across every partition and drops non-blocking fan-in predecessors', () => {
    const plan = analysePlan(fan(10), 4);
    expect(plan.order[0]).toBe('a');
    expect(plan.order.at(-1)).toBe('z');
    expect(plan.lastReader.get('a')).toBe(2);
    expect(maxCarriedOutputs(plan)).toBe(1);
    // The sink's partition: 7 middle nodes ran earlier; only a blocking one comes along.
    const allSucceeded = 's'.repeat(8) + 'pppp';
    const last = partitionSlice(plan, 2, allSucceeded);
    expect(last.nodes.map((n) => n.id)).toEqual(['m007', 'm008', 'm009', 'z']);
    expect(last.external.map((e) => e.node.id)).toEqual(['a']);
    const oneFailed = 'sfscs' + 's'.repeat(3) + 'pppp';
    expect(partitionSlice(plan, 2, oneFailed).external.map((e) => [e.node.id, e.code])).toEqual([['a', 's'], ['m000', 'f']]);
  });

  it('marks a tolerated failure so it blocks no control successor', () => {
    expect(codeOfState('failed', true)).toBe('t');
    expect(stateOfCode('t')).toBe('failed');
    expect(stateOfCode(STATE_CODES.skipped)).toBe('skipped');
    expect(countStates('sstfkcp')).toEqual({ pending: 1, running: 0, waiting: 0, succeeded: 2, failed: 2, skipped: 1, cancelled: 1 });
  });

  it('bounds the carried state by the output limit, the inputs and one byte per node', () => {
    const wide = { nodes: [node('a'), node('b'), ...ids(6).map((id) => node(id)), node('z')], edges: [data('a', 'z'), data('b', 'z')] };
    const plan = analysePlan(wide, 3);
    expect(maxCarriedOutputs(plan)).toBe(2);
    const bound = carriedStateBound(plan, 1_000_000, 500);
    expect(bound.outputs).toBe(2);
    expect(bound.bytes).toBeGreaterThan(2_000_000);
  });

  it('refuses a bad partition size', () => {
    expect(() => analysePlan(chain(3, 'data'), 0)).toThrow(/positive integer/);
  });
});

describe('topological order of large graphs', () => {
  it('matches smallest-id-first Kahn order and handles a 50,000-wide fan quickly', () => {
    const small = fan(5);
    expect(topologicalOrder(indexGraph(small.nodes, small.edges))).toEqual(['a', 'm000', 'm001', 'm002', 'm003', 'm004', 'z']);
    const big = fan(50_000);
    const t0 = performance.now();
    const order = topologicalOrder(indexGraph(big.nodes, big.edges))!;
    expect(order).toHaveLength(50_002);
    expect(order.at(-1)).toBe('z');
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});
