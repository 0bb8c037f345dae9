import { describe, expect, it } from 'vitest';
import { approvalParams } from '../../src/domain/approval-schemas';
import { gatePrompt, runGate } from '../../src/domain/approvals';
import { validatePlanGraph } from '../../src/domain/graph';
import { planToMermaid } from '../../src/domain/plan-diagram';
import { planGraphPayloadSchema, type PlanGraphPayloadInput } from '../../src/domain/records';
import type { NodeStatus } from '../../src/domain/run-state';
import { createOpRegistry } from '../../src/ops/registry';
import { defineOp } from '../../src/ops/define-op';
import { splitForResume } from '../../src/runs/resume-plan';
import { z } from 'zod';

const plan = (spec: Pick<PlanGraphPayloadInput, 'nodes'> & Partial<PlanGraphPayloadInput>) =>
  planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: 'p', intent: 'ship it', ...spec });
const issuesOf = (p: ReturnType<typeof plan>) => validatePlanGraph(p, { knownOps: new Set(['echo']) }).map((i) => `${i.code} ${i.path}`);

describe('approval validation', () => {
  it('accepts an approval node although no worker provides the op', () => {
    expect(issuesOf(plan({ nodes: [{ id: 'ok', op: 'approval', params: { prompt: 'Go?', timeout: '10m' } }] }))).toEqual([]);
  });

  it('reports a missing prompt, a bad timeout and bad gate constraints with invalid_approval', () => {
    expect(issuesOf(plan({ nodes: [{ id: 'a', op: 'approval', params: {} }, { id: 'b', op: 'approval', params: { prompt: 'x', timeout: 'soon' } }] }))).toEqual([
      'invalid_approval nodes[0].params.prompt',
      'invalid_approval nodes[1].params.timeout',
    ]);
    const gate = plan({ nodes: [{ id: 'a', op: 'echo' }], constraints: { requires_approval: 'yes', approval_timeout: 'later', approval_prompt: '' } });
    expect(issuesOf(gate)).toEqual([
      'invalid_approval constraints.requires_approval',
      'invalid_approval constraints.approval_prompt',
      'invalid_approval constraints.approval_timeout',
    ]);
  });

  it('reserves the gate id when the plan asks for the gate', () => {
    const nodes = [{ id: '$run', op: 'echo' }];
    expect(issuesOf(plan({ nodes, constraints: { requires_approval: true } }))).toEqual(['reserved_node_id nodes[0].id']);
    expect(issuesOf(plan({ nodes }))).toEqual([]);
  });

  it('reads params and the gate', () => {
    expect(approvalParams({ params: { prompt: 'Go?', timeout: '2m' } })).toEqual({ prompt: 'Go?', timeoutMs: 120_000 });
    expect(runGate(plan({ nodes: [{ id: 'a', op: 'echo' }] }))).toBeUndefined();
    expect(runGate(plan({ nodes: [{ id: 'a', op: 'echo' }], constraints: { requires_approval: true, approval_timeout: '1h' } }))).toEqual({ prompt: 'Run plan "ship it"?', timeoutMs: 3_600_000 });
  });

  it('lets the gate prompt show run inputs, and nothing the gate cannot know yet', () => {
    const gated = (approval_prompt: string) => plan({ nodes: [{ id: 'a', op: 'echo' }], constraints: { requires_approval: true, approval_prompt } });
    expect(issuesOf(gated('Migrate {{inputs.table}} to {{ inputs.target.region }}?'))).toEqual([]);
    expect(issuesOf(gated('Use {{nodes.a.output.x}} and {{item}}, {{inputs.t}}?'))).toEqual(['invalid_approval constraints.approval_prompt', 'invalid_approval constraints.approval_prompt']);
    expect(validatePlanGraph(gated('Use {{nodes.a.state}}?'), { knownOps: new Set(['echo']) })[0]?.message).toMatch(/\{\{nodes\.a\.state\}\} is not a run input/);

    const inputs = { table: 'users', target: { region: 'eu' }, rows: [1, 2] };
    expect(gatePrompt('Migrate {{inputs.table}} to {{ inputs.target.region }}?', inputs)).toBe('Migrate users to eu?');
    expect(gatePrompt('Rows {{inputs.rows}}, owner {{inputs.owner}}.', inputs)).toBe('Rows [1,2], owner .');
    expect(gatePrompt('{{inputs.target}}', inputs)).toBe('{"region":"eu"}');
    expect(gatePrompt('{{inputs.owner}}', inputs)).toBe('{{inputs.owner}}');
    expect(gatePrompt('Run it?', inputs)).toBe('Run it?');
  });

  it('refuses an op module that takes the name of the built-in approval op', () => {
    const op = defineOp({ name: 'approval', description: 'x', params: z.object({}), run: async () => ({}) });
    expect(() => createOpRegistry([op])).toThrow(/built into the executor/);
  });

  it('draws approval nodes and the gate as hexagons of class approval', () => {
    const text = planToMermaid(plan({
      nodes: [{ id: 'build', op: 'echo' }, { id: 'ok', op: 'approval', params: { prompt: 'Deploy?' } }],
      edges: [{ from: 'build', to: 'ok', kind: 'control' }],
      constraints: { requires_approval: true, approval_prompt: 'Start?' },
    }));
    expect(text).toContain('n1{{"ok<br/>approval: Deploy?"}}');
    expect(text).toContain('gate{{"$run<br/>approval: Start?"}}');
    expect(text).toContain('gate -.->|approved| n0');
    expect(text).not.toContain('gate -.->|approved| n1');
    expect(text).toContain('class n1,gate approval');
  });
});

describe('splitForResume', () => {
  const status = (id: string, state: NodeStatus['state']): NodeStatus => ({ id, op: 'echo', state, attempts: 1, output: { id } });
  const p = plan({
    nodes: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, op: 'echo' })),
    edges: [
      { from: 'a', to: 'b', kind: 'data' },
      { from: 'b', to: 'c', kind: 'data' },
      { from: 'a', to: 'd', kind: 'control' },
      { from: 'd', to: 'e', kind: 'control' },
    ],
  });

  it('reruns what did not succeed and everything downstream of it; reuses the rest with its output', () => {
    const split = splitForResume(p, [status('a', 'succeeded'), status('b', 'failed'), status('c', 'skipped'), status('d', 'succeeded'), status('e', 'succeeded')]);
    expect(split.rerun).toEqual(['b', 'c']);
    expect(split.reused).toEqual({ a: { output: { id: 'a' }, attempts: 1 }, d: { output: { id: 'd' }, attempts: 1 }, e: { output: { id: 'e' }, attempts: 1 } });
  });

  it('reruns a succeeded node below a skipped control predecessor, and nodes the old status lacks', () => {
    const split = splitForResume(p, [status('a', 'succeeded'), status('b', 'succeeded'), status('c', 'succeeded'), status('d', 'skipped')]);
    expect(split.rerun).toEqual(['d', 'e']);
    expect(Object.keys(split.reused)).toEqual(['a', 'b', 'c']);
  });

  it('reruns a succeeded node whose output the old status left out, and what depends on it', () => {
    const omitted: NodeStatus = { id: 'a', op: 'echo', state: 'succeeded', attempts: 1, output_omitted: { bytes: 900_000 } };
    const split = splitForResume(p, [omitted, status('b', 'succeeded'), status('c', 'succeeded'), status('d', 'succeeded'), status('e', 'failed')]);
    expect(split.rerun).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(split.reused).toEqual({});
  });

  it('keeps nodes named like Object properties as own entries', () => {
    const odd = plan({ nodes: ['__proto__', 'constructor', 'x'].map((id) => ({ id, op: 'echo' })), edges: [{ from: 'constructor', to: 'x', kind: 'data' }] });
    const split = splitForResume(odd, [status('__proto__', 'succeeded'), status('constructor', 'succeeded'), status('x', 'failed')]);
    expect(Object.keys(split.reused).sort()).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(split.reused)).__proto__).toEqual({ output: { id: '__proto__' }, attempts: 1 });
    expect(split.rerun).toEqual(['x']);
  });
});
