import { describe, expect, it } from 'vitest';
import { findCycle, indexGraph, parsePlanGraph, topologicalOrder, validatePlanGraph, type PlanIssue } from '../../src/domain/graph';
import { MAX_NODE_ID_LENGTH, MAX_TASK_QUEUE_LENGTH } from '../../src/domain/start-checks';
import { ONE_HISTORY_NODE_LIMIT } from '../../src/domain/partitioning';
import { planGraphPayloadSchema, type PlanGraphPayload, type PlanGraphPayloadInput } from '../../src/domain/records';

type Spec = Pick<PlanGraphPayloadInput, 'nodes'> & Partial<PlanGraphPayloadInput>;

function plan(spec: Spec): PlanGraphPayload {
  return planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: 'p', intent: 'test', ...spec });
}

const n = (id: string, op = 'noop', extra: Record<string, unknown> = {}) => ({ id, op, ...extra });
const codes = (issues: PlanIssue[]) => issues.map((i) => i.code).sort();

describe('validatePlanGraph', () => {
  it('accepts a valid diamond with data references', () => {
    const p = plan({
      nodes: [n('a'), n('b', 'echo', { params: { x: '{{nodes.a.output.v}}' } }), n('c'), n('d', 'noop', { guards: { eq: [{ ref: 'nodes.b.state' }, 'succeeded'] } })],
      edges: [
        { from: 'a', to: 'b', kind: 'data' },
        { from: 'a', to: 'c', kind: 'control' },
        { from: 'b', to: 'd', kind: 'control' },
        { from: 'c', to: 'd', kind: 'control' },
      ],
    });
    expect(validatePlanGraph(p, { knownOps: new Set(['noop', 'echo']) })).toEqual([]);
  });

  it('reports an empty node id', () => {
    const issues = validatePlanGraph(plan({ nodes: [n('a'), n('  ')] }));
    expect(issues).toEqual([expect.objectContaining({ code: 'empty_node_id', path: 'nodes[1].id' })]);
  });

  it('reports a duplicate node naming both positions', () => {
    const issues = validatePlanGraph(plan({ nodes: [n('a'), n('b'), n('a')] }));
    expect(issues).toEqual([expect.objectContaining({ code: 'duplicate_node', path: 'nodes[2].id' })]);
    expect(issues[0]!.message).toContain('"a"');
  });

  it('reports each dangling end of an edge', () => {
    const issues = validatePlanGraph(plan({ nodes: [n('a')], edges: [{ from: 'x', to: 'y', kind: 'control' }] }));
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['dangling_edge', 'edges[0].from'],
      ['dangling_edge', 'edges[0].to'],
    ]);
  });

  it('reports a duplicate edge of the same kind, but allows a data and a control edge between two nodes', () => {
    const edges = [
      { from: 'a', to: 'b', kind: 'data' as const },
      { from: 'a', to: 'b', kind: 'control' as const },
      { from: 'a', to: 'b', kind: 'data' as const },
    ];
    const issues = validatePlanGraph(plan({ nodes: [n('a'), n('b')], edges }));
    expect(issues).toEqual([expect.objectContaining({ code: 'duplicate_edge', path: 'edges[2]' })]);
  });

  it('reports a self edge (and not as a cycle)', () => {
    const issues = validatePlanGraph(plan({ nodes: [n('a')], edges: [{ from: 'a', to: 'a', kind: 'control' }] }));
    expect(codes(issues)).toEqual(['self_edge']);
    expect(issues[0]!.path).toBe('edges[0]');
  });

  it('reports a cycle with the node ids on it, and not the nodes off it', () => {
    const issues = validatePlanGraph(
      plan({
        nodes: [n('start'), n('a'), n('b'), n('c'), n('end')],
        edges: [
          { from: 'start', to: 'a', kind: 'control' },
          { from: 'a', to: 'b', kind: 'control' },
          { from: 'b', to: 'c', kind: 'data' },
          { from: 'c', to: 'a', kind: 'control' },
          { from: 'c', to: 'end', kind: 'control' },
        ],
      }),
    );
    expect(codes(issues)).toEqual(['cycle']);
    expect([...issues[0]!.nodes!].sort()).toEqual(['a', 'b', 'c']);
    expect(issues[0]!.message).toContain('a -> b -> c -> a');
  });

  it('reports two disjoint cycles separately', () => {
    const issues = validatePlanGraph(
      plan({
        nodes: [n('a'), n('b'), n('x'), n('y')],
        edges: [
          { from: 'a', to: 'b', kind: 'control' },
          { from: 'b', to: 'a', kind: 'control' },
          { from: 'x', to: 'y', kind: 'control' },
          { from: 'y', to: 'x', kind: 'control' },
        ],
      }),
    );
    expect(issues.map((i) => [...i.nodes!].sort())).toEqual([
      ['a', 'b'],
      ['x', 'y'],
    ]);
  });

  it('reports unknown ops only against a given registry', () => {
    const p = plan({ nodes: [n('a', 'noop'), n('b', 'teleport')] });
    expect(validatePlanGraph(p)).toEqual([]);
    const issues = validatePlanGraph(p, { knownOps: new Set(['noop']) });
    expect(issues).toEqual([expect.objectContaining({ code: 'unknown_op', path: 'nodes[1].op' })]);
    expect(issues[0]!.message).toContain('teleport');
  });

  it('reports a node output reference without a data edge, in params and in guards', () => {
    const p = plan({
      nodes: [
        n('a'),
        n('b', 'echo', { params: { v: 'x={{ nodes.a.output.v }}' }, guards: { exists: { ref: 'nodes.a.output' } } }),
      ],
      edges: [{ from: 'a', to: 'b', kind: 'control' }],
    });
    const issues = validatePlanGraph(p);
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['undeclared_data_ref', 'nodes[1].params.v'],
      ['undeclared_data_ref', 'nodes[1].guards'],
    ]);
  });

  it('lets a state reference use any edge, but not none', () => {
    const guard = { eq: [{ ref: 'nodes.a.state' }, 'succeeded'] };
    const withControl = plan({ nodes: [n('a'), n('b', 'noop', { guards: guard })], edges: [{ from: 'a', to: 'b', kind: 'control' }] });
    expect(validatePlanGraph(withControl)).toEqual([]);
    const without = plan({ nodes: [n('a'), n('b', 'noop', { guards: guard })] });
    expect(codes(validatePlanGraph(without))).toEqual(['undeclared_data_ref']);
  });

  it('reports references to a node that does not exist', () => {
    const issues = validatePlanGraph(plan({ nodes: [n('b', 'echo', { params: { v: '{{nodes.ghost.output}}' } })] }));
    expect(issues).toEqual([expect.objectContaining({ code: 'undeclared_data_ref', path: 'nodes[0].params.v' })]);
    expect(issues[0]!.message).toContain('ghost');
  });

  it('reports malformed references instead of resolving them to nothing', () => {
    const p = plan({
      nodes: [n('a'), n('b', 'echo', { params: { v: '{{nodes.a}}', w: '{{ secrets.key }}' }, guards: { ref: 'nodes.a.outputs' } })],
      edges: [{ from: 'a', to: 'b', kind: 'data' }],
    });
    expect(validatePlanGraph(p).map((i) => [i.code, i.path])).toEqual([
      ['undeclared_data_ref', 'nodes[1].params.v'],
      ['undeclared_data_ref', 'nodes[1].params.w'],
      ['invalid_guard', 'nodes[1].guards'],
    ]);
  });

  it('reports malformed guards with their path', () => {
    const p = plan({ nodes: [n('a', 'noop', { guards: { and: [{ eq: [1] }, { bogus: 1 }] } })] });
    expect(validatePlanGraph(p).map((i) => [i.code, i.path])).toEqual([
      ['invalid_guard', 'nodes[0].guards.and[0].eq'],
      ['invalid_guard', 'nodes[0].guards.and[1].bogus'],
    ]);
  });

  it('reports every problem at once', () => {
    const p = plan({
      nodes: [n(''), n('a'), n('a', 'teleport'), n('b', 'noop', { guards: { nope: [] }, params: { x: '{{nodes.c.output}}' } }), n('c')],
      edges: [
        { from: 'a', to: 'missing', kind: 'control' },
        { from: 'b', to: 'b', kind: 'control' },
        { from: 'a', to: 'b', kind: 'control' },
        { from: 'a', to: 'b', kind: 'control' },
        { from: 'b', to: 'c', kind: 'control' },
        { from: 'c', to: 'a', kind: 'control' },
      ],
    });
    expect(new Set(codes(validatePlanGraph(p, { knownOps: new Set(['noop']) })))).toEqual(
      new Set(['empty_node_id', 'duplicate_node', 'unknown_op', 'dangling_edge', 'self_edge', 'duplicate_edge', 'cycle', 'invalid_guard', 'undeclared_data_ref']),
    );
  });
});

describe('durations and reserved ids', () => {
  // As a plan stored before the schema refused them would hold them (no parse on the way in).
  const stored = (spec: Spec) => {
    const base = plan({ nodes: [n('a')] });
    return { ...base, nodes: spec.nodes.map((node) => ({ params: {}, guards: {}, ...node })), constraints: { ...base.constraints, ...spec.constraints } } as PlanGraphPayload;
  };

  it('refuses zero and malformed durations a stored plan still holds, naming the field', () => {
    const issues = validatePlanGraph(
      stored({
        nodes: [n('a', 'noop', { policy: { start_to_close_timeout: '0s', retry: { initial_interval: '1\tm' } } }), n('b', 'noop', { policy: { heartbeat_timeout: 0 } })],
        constraints: { timeout: ' 5m' },
      }),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['invalid_duration', 'nodes[0].policy.start_to_close_timeout'],
      ['invalid_duration', 'nodes[0].policy.retry.initial_interval'],
      ['invalid_duration', 'nodes[1].policy.heartbeat_timeout'],
      ['invalid_duration', 'constraints.timeout'],
    ]);
    expect(issues[0]!.message).toBe('node "a": start_to_close_timeout "0s" is not a positive duration such as "250ms", "1.5s", "5m" or "2h"');
  });

  it('with startChecks, refuses what would fail only inside the run (ids, queue names, retry intervals, an approval for_each)', () => {
    const plan = planGraphPayloadSchema.parse({
      kind: 'plan_graph',
      plan_id: 'p',
      intent: 'x',
      nodes: [
        { id: 'n'.repeat(MAX_NODE_ID_LENGTH + 1), op: 'noop' },
        { id: 'q', op: 'noop', policy: { task_queue: 't'.repeat(MAX_TASK_QUEUE_LENGTH + 1) } },
        { id: 'r', op: 'noop', policy: { retry: { initial_interval: '2s', maximum_interval: '1s' } } },
        { id: 'n'.repeat(MAX_NODE_ID_LENGTH), op: 'noop', policy: { task_queue: 'ok', retry: { initial_interval: '1s', maximum_interval: '1s' } } },
        { id: 'ok', op: 'approval', for_each: '{{inputs.items}}', params: { prompt: 'ok?' } },
      ],
    });
    // Workflows validate without it: runs started before these checks replay unchanged.
    expect(validatePlanGraph(plan)).toEqual([]);
    expect(validatePlanGraph(plan, { startChecks: true }).map((i) => [i.code, i.path])).toEqual([
      ['invalid_schema', 'nodes[0].id'],
      ['invalid_schema', 'nodes[1].policy.task_queue'],
      ['invalid_duration', 'nodes[2].policy.retry.maximum_interval'],
      ['invalid_approval', 'nodes[4].for_each'],
    ]);
  });

  it('with startChecks, refuses a plan too large for the one history its map, sub-plan or approval nodes need', () => {
    const chainOf = (count: number, last: { op: string } & Record<string, unknown>) =>
      plan({ nodes: [...Array.from({ length: count - 1 }, (_, i) => n(`n${i}`)), { id: 'last', ...last }] });
    const approval = { op: 'approval', params: { prompt: 'go?' } };
    const refused = validatePlanGraph(chainOf(ONE_HISTORY_NODE_LIMIT + 1, approval), { startChecks: true });
    expect(refused.map((i) => [i.code, i.path])).toEqual([['too_many_nodes', 'nodes']]);
    expect(refused[0]!.message).toContain(`${ONE_HISTORY_NODE_LIMIT + 1} nodes`);
    expect(refused[0]!.message).toContain('node "last" is an approval node');
    expect(validatePlanGraph(chainOf(ONE_HISTORY_NODE_LIMIT + 1, { op: 'echo', for_each: '{{inputs.items}}' }), { startChecks: true })[0]?.message).toContain('a map node');
    const gated = plan({ nodes: Array.from({ length: ONE_HISTORY_NODE_LIMIT + 1 }, (_, i) => n(`n${i}`)), constraints: { requires_approval: true } });
    expect(validatePlanGraph(gated, { startChecks: true })[0]?.message).toContain('requires_approval');
    // At the limit, or partitionable at any size, or checked by a workflow: no issue.
    expect(validatePlanGraph(chainOf(ONE_HISTORY_NODE_LIMIT, approval), { startChecks: true })).toEqual([]);
    expect(validatePlanGraph(chainOf(ONE_HISTORY_NODE_LIMIT + 1, { op: 'noop' }), { startChecks: true })).toEqual([]);
    expect(validatePlanGraph(chainOf(ONE_HISTORY_NODE_LIMIT + 1, approval))).toEqual([]);
  });

  it('refuses them on write too, and takes what Temporal parses', () => {
    const parse = (timeout: unknown) => parsePlanGraph({ kind: 'plan_graph', plan_id: 'p', intent: 'x', nodes: [{ id: 'a', op: 'noop' }], constraints: { timeout } });
    for (const bad of ['0s', '0.0h', '1\tm', ' 5m', '5 minutes', '1w', `${'0'.repeat(40)}1s`, 0, -5]) {
      const result = parse(bad);
      // One issue per mistake: a malformed duration is not also "not longer than zero".
      expect(result.ok === false && result.issues.map((i) => `${i.code} at ${i.path}`), JSON.stringify(bad)).toEqual(['invalid_schema at constraints.timeout']);
    }
    for (const good of ['250ms', '1.5s', '5 m', '2h', '1d', 40]) expect(parse(good).ok, JSON.stringify(good)).toBe(true);
  });

  it('reserves the node id __proto__, where outputs keyed by node id would set a prototype', () => {
    const issues = validatePlanGraph(stored({ nodes: [n('a'), n('__proto__')] }));
    expect(issues).toEqual([expect.objectContaining({ code: 'reserved_node_id', path: 'nodes[1].id' })]);
  });

  it('names a referenced node the plan does not have, rather than asking for its edge', () => {
    const issues = validatePlanGraph(stored({ nodes: [n('a'), { id: 'b', op: 'echo', params: { x: '{{nodes.ghost.output.x}}', y: '{{nodes.a.output.y}}' } }] }));
    expect(issues.map((i) => i.message)).toEqual([
      'node "b" references "nodes.ghost.output.x" but the plan has no node "ghost"',
      'node "b" references "nodes.a.output.y" but has no data edge a -> b',
    ]);
  });

  it('reserves the activity ids the executor gives its own activities: a map item of the plan, ids starting with $', () => {
    const map = { id: 'm', op: 'echo', for_each: '{{inputs.items}}' };
    const issues = validatePlanGraph(stored({ nodes: [map, n('m[0]'), n('m[12]'), n('$task-boundary-1'), n('m[01]'), n('x[0]'), n('17')] }));
    expect(issues.map((i) => [i.code, i.path, i.message])).toEqual([
      ['reserved_node_id', 'nodes[1].id', 'node id "m[0]" is the activity id of item 0 of map node "m"'],
      ['reserved_node_id', 'nodes[2].id', 'node id "m[12]" is the activity id of item 12 of map node "m"'],
      ['reserved_node_id', 'nodes[3].id', 'node id "$task-boundary-1" is reserved: ids starting with "$" are the executor\'s own'],
    ]);
  });
});

describe('parsePlanGraph', () => {
  it('reports schema problems as invalid_schema with a path', () => {
    const result = parsePlanGraph({ kind: 'plan_graph', plan_id: 'p', intent: 'x', nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'b', kind: 'sideways' }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.every((i) => i.code === 'invalid_schema')).toBe(true);
    expect(result.issues.map((i) => i.path).sort()).toEqual(['edges[0].kind', 'nodes[0].op']);
  });

  it('refuses an empty node list and a guard that is not an object', () => {
    const empty = parsePlanGraph({ kind: 'plan_graph', plan_id: 'p', intent: 'x', nodes: [] });
    expect(empty.ok === false && empty.issues.map((i) => i.path)).toEqual(['nodes']);
    const badGuard = parsePlanGraph({ kind: 'plan_graph', plan_id: 'p', intent: 'x', nodes: [{ id: 'a', op: 'noop', guards: true }] });
    expect(badGuard.ok === false && badGuard.issues.map((i) => [i.code, i.path])).toEqual([['invalid_schema', 'nodes[0].guards']]);
  });

  it('returns the parsed plan with defaults when valid', () => {
    const result = parsePlanGraph({ kind: 'plan_graph', plan_id: 'p', intent: 'x', nodes: [{ id: 'a', op: 'noop' }] });
    expect(result.ok && result.plan.constraints.failure_policy).toBe('fail_fast');
    expect(result.ok && result.plan.nodes[0]!.guards).toEqual({});
  });
});

describe('graph order', () => {
  it('orders topologically, smallest id first among ready nodes', () => {
    const index = indexGraph([n('c'), n('b'), n('a'), n('d')], [
      { from: 'c', to: 'a', kind: 'control' },
      { from: 'b', to: 'd', kind: 'data' },
    ]);
    expect(topologicalOrder(index)).toEqual(['b', 'c', 'a', 'd']);
    expect(findCycle(index)).toBeNull();
  });

  it('finds no order on a cycle and handles a 10,000-node chain without overflowing', () => {
    const cyclic = indexGraph([n('a'), n('b')], [
      { from: 'a', to: 'b', kind: 'control' },
      { from: 'b', to: 'a', kind: 'control' },
    ]);
    expect(topologicalOrder(cyclic)).toBeNull();
    const ids = Array.from({ length: 10_000 }, (_, i) => `n${String(i).padStart(5, '0')}`);
    const edges = ids.slice(1).map((id, i) => ({ from: ids[i]!, to: id, kind: 'control' as const }));
    const long = indexGraph(ids.map((id) => n(id)), [...edges, { from: ids[9_999]!, to: ids[0]!, kind: 'control' }]);
    expect(findCycle(long)).toHaveLength(10_000);
  });
});
