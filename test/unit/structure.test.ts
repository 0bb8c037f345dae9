import { describe, expect, it } from 'vitest';
import type { PlanGraphPayload } from '../../src/domain/records';
import { structureKey } from '../../src/domain/structure';

type Plan = Pick<PlanGraphPayload, 'intent' | 'nodes' | 'edges'>;
const node = (id: string, op: string, params: Record<string, unknown> = {}) => ({ id, op, params, guards: {} });
const edge = (from: string, to: string, kind: 'data' | 'control' = 'control') => ({ from, to, kind });

const base: Plan = {
  intent: 'fetch and report',
  nodes: [node('a', 'noop'), node('b', 'noop'), node('c', 'echo'), node('d', 'json_pick')],
  edges: [edge('a', 'c'), edge('b', 'd', 'data')],
};

describe('structureKey', () => {
  it('ignores node ids, node order and params', () => {
    const renamed: Plan = {
      intent: 'fetch and report',
      // The roots' ids now sort the other way round, which must not matter.
      nodes: [node('q', 'json_pick', { x: 1 }), node('z', 'noop'), node('p', 'echo', { y: 2 }), node('y', 'noop')],
      edges: [edge('y', 'q', 'data'), edge('z', 'p')],
    };
    expect(structureKey(renamed)).toBe(structureKey(base));
  });

  it('changes with the intent, the ops, an edge or an edge kind', () => {
    const key = structureKey(base);
    expect(structureKey({ ...base, intent: 'other' })).not.toBe(key);
    expect(structureKey({ ...base, nodes: [...base.nodes.slice(0, 3), node('d', 'echo')] })).not.toBe(key);
    expect(structureKey({ ...base, edges: [edge('a', 'c'), edge('b', 'd')] })).not.toBe(key);
    expect(structureKey({ ...base, edges: [edge('a', 'c'), edge('a', 'd', 'data')] })).not.toBe(key);
  });

  it('tells apart plans with the same ops and edge labels but different wiring', () => {
    const fanOut: Plan = { intent: 'i', nodes: [node('a', 'noop'), node('b', 'noop'), node('c', 'echo'), node('d', 'echo')], edges: [edge('a', 'c'), edge('a', 'd')] };
    const pairs: Plan = { ...fanOut, edges: [edge('a', 'c'), edge('b', 'd')] };
    expect(structureKey(fanOut)).not.toBe(structureKey(pairs));
  });

  it('is a hex sha-256 and stable across calls', () => {
    expect(structureKey(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(structureKey(base)).toBe(structureKey(structuredClone(base)));
  });
});
