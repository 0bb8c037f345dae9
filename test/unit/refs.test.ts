import { describe, expect, it } from 'vitest';
import { collectTemplateRefs, parseRef, resolveTemplates, unresolvedOutputRefs, type RefScope } from '../../src/domain/refs';

const ids = ['fetch', 'fetch.v2', 'sum'];
const scope: RefScope = {
  inputs: { city: 'Oslo', days: 3, opts: { metric: true }, list: [10, 20] },
  nodes: {
    fetch: { state: 'succeeded', output: { temp: -2.5, rows: [{ id: 1 }], ok: true, none: null } },
    'fetch.v2': { state: 'succeeded', output: 'v2' },
    sum: { state: 'failed' },
  },
};
const resolve = (value: unknown) => resolveTemplates(value, scope, ids);

describe('parseRef', () => {
  it('parses inputs, node outputs and node states', () => {
    expect(parseRef('inputs', ids)).toEqual({ root: 'inputs', path: [] });
    expect(parseRef('inputs.opts.metric', ids)).toEqual({ root: 'inputs', path: ['opts', 'metric'] });
    expect(parseRef('nodes.fetch.output', ids)).toEqual({ root: 'node', nodeId: 'fetch', field: 'output', path: [] });
    expect(parseRef('nodes.fetch.output.rows.0.id', ids)).toEqual({ root: 'node', nodeId: 'fetch', field: 'output', path: ['rows', '0', 'id'] });
    expect(parseRef('nodes.sum.state', ids)).toEqual({ root: 'node', nodeId: 'sum', field: 'state', path: [] });
  });

  it('picks the longest known node id when ids contain dots', () => {
    expect(parseRef('nodes.fetch.v2.output', ids)).toMatchObject({ nodeId: 'fetch.v2', field: 'output', path: [] });
  });

  it('still names an unknown node, and rejects malformed references', () => {
    expect(parseRef('nodes.ghost.output.x', ids)).toEqual({ root: 'node', nodeId: 'ghost', field: 'output', path: ['x'] });
    expect(parseRef('nodes.fetch', ids)).toBeUndefined();
    expect(parseRef('nodes.fetch.outputs', ids)).toBeUndefined();
    expect(parseRef('nodes.sum.state.x', ids)).toBeUndefined();
    expect(parseRef('env.HOME', ids)).toBeUndefined();
  });
});

describe('resolveTemplates', () => {
  it('keeps the JSON type of a whole-value reference', () => {
    expect(
      resolve({
        n: '{{inputs.days}}',
        f: '{{ nodes.fetch.output.temp }}',
        b: '{{nodes.fetch.output.ok}}',
        o: '{{inputs.opts}}',
        a: '{{inputs.list}}',
        z: '{{nodes.fetch.output.none}}',
        s: '{{nodes.sum.state}}',
      }),
    ).toEqual({ n: 3, f: -2.5, b: true, o: { metric: true }, a: [10, 20], z: null, s: 'failed' });
  });

  it('interpolates references inside a longer string as text', () => {
    expect(resolve('weather in {{inputs.city}} for {{inputs.days}} days')).toBe('weather in Oslo for 3 days');
    expect(resolve('rows={{nodes.fetch.output.rows}} opts={{inputs.opts}}')).toBe('rows=[{"id":1}] opts={"metric":true}');
    expect(resolve('[{{nodes.fetch.output.none}}|{{inputs.missing}}]')).toBe('[|]');
  });

  it('resolves inside nested arrays and objects and leaves other values alone', () => {
    expect(resolve({ q: [{ city: '{{inputs.city}}' }, 7, null, false], plain: 'no refs' })).toEqual({
      q: [{ city: 'Oslo' }, 7, null, false],
      plain: 'no refs',
    });
  });

  it('resolves a missing whole-value reference to undefined and array indexes by position', () => {
    expect(resolve('{{inputs.nope}}')).toBeUndefined();
    expect(resolve('{{inputs.list.1}}')).toBe(20);
    expect(resolve('{{nodes.fetch.v2.output}}')).toBe('v2');
  });
});

describe('the run’s own ids', () => {
  it('resolve to the run’s id and workflow id, whole or inside a text; other run fields are no reference', () => {
    const run = { id: '0b6f3c8e-3b0e-4a57-9d7e-2f1c5a9e4d21', workflow_id: 'plan-refund-1' };
    expect(parseRef('run.id', ids)).toEqual({ root: 'run', field: 'id', path: [] });
    expect(parseRef('run.workflow_id', ids)).toEqual({ root: 'run', field: 'workflow_id', path: [] });
    for (const ref of ['run', 'run.started_at', 'run.id.x']) expect(parseRef(ref, ids), ref).toBeUndefined();
    expect(resolveTemplates({ key: '{{run.id}}', note: 'refund-{{ run.id }} in {{run.workflow_id}}' }, { ...scope, run }, ids)).toEqual({
      key: run.id,
      note: `refund-${run.id} in plan-refund-1`,
    });
    // Where no run is known (an approval's prompt), nothing.
    expect(resolveTemplates('{{run.id}}', scope, ids)).toBeUndefined();
  });
});

describe('unresolvedOutputRefs', () => {
  it('names each upstream output read at a path it does not have, and what is there instead', () => {
    const params = { a: '{{nodes.fetch.output.temp}}', b: 'at {{nodes.fetch.output.city.name}}', c: ['{{nodes.fetch.output.rows.3.id}}'], d: '{{nodes.fetch.output.ok.x}}' };
    expect(unresolvedOutputRefs(params, scope, ids)).toEqual([
      'b reads {{nodes.fetch.output.city.name}}, but the output of "fetch" has only temp, rows, ok, none',
      'c[0] reads {{nodes.fetch.output.rows.3.id}}, but "rows" in the output of "fetch" has 1 items',
      'd reads {{nodes.fetch.output.ok.x}}, but "ok" in the output of "fetch" is true',
    ]);
    // null is a value; inputs, states, items and the run are not upstream outputs.
    const resolved = { n: '{{nodes.fetch.output.none}}', s: '{{nodes.sum.state}}', i: '{{inputs.missing}}', r: '{{run.id}}', m: '{{item.x}}' };
    expect(unresolvedOutputRefs(resolved, scope, ids)).toEqual([]);
    expect(unresolvedOutputRefs({ x: '{{nodes.sum.output}}' }, scope, ids)).toEqual(['x reads {{nodes.sum.output}}, but the output of "sum" is empty']);
  });
});

describe('collectTemplateRefs', () => {
  it('finds every reference with its path, in sorted key order', () => {
    expect(collectTemplateRefs({ b: ['{{ inputs.x }} and {{nodes.a.output}}'], a: { c: '{{nodes.b.state}}' } }, 'params')).toEqual([
      { ref: 'nodes.b.state', path: 'params.a.c' },
      { ref: 'inputs.x', path: 'params.b[0]' },
      { ref: 'nodes.a.output', path: 'params.b[0]' },
    ]);
  });
});
