import { describe, expect, it } from 'vitest';
import { traceDataFlow } from '../../src/consolidation/provenance';
import { isTraceable } from '../../src/consolidation/json-leaves';

type Node = { id: string; args?: Record<string, unknown>; result?: unknown; timestamp?: number; depends_on?: string[] };
const trace = (nodes: Node[]) =>
  traceDataFlow(nodes.map((n) => ({ id: n.id, args: n.args ?? {}, result: n.result, timestamp: n.timestamp, depends_on: n.depends_on ?? [] })));

describe('value provenance', () => {
  it('turns a result value used as a later arg into a data edge and a typed reference', () => {
    const flow = trace([
      { id: 'clone', args: { url: 'https://git.example/a.git' }, result: { path: '/tmp/a', commit: 'c0ffee42', size: 123456 } },
      { id: 'build', args: { dir: '/tmp/a', bytes: 123456 }, depends_on: ['clone'] },
    ]);
    expect(flow.params.get('build')).toEqual({ dir: '{{nodes.clone.output.path}}', bytes: '{{nodes.clone.output.size}}' });
    expect(flow.params.get('clone')).toEqual({ url: 'https://git.example/a.git' });
    // The data edge replaces the control edge between the same pair.
    expect(flow.edges).toEqual([{ from: 'clone', to: 'build', kind: 'data' }]);
  });

  it('finds values inside arrays and nested objects, on both sides', () => {
    const flow = trace([
      { id: 'list', result: { items: [{ id: 'issue-981' }, { id: 'issue-982' }] } },
      { id: 'close', args: { targets: [{ ref: 'issue-982' }], note: 'done' }, depends_on: ['list'] },
    ]);
    expect(flow.params.get('close')).toEqual({ targets: [{ ref: '{{nodes.list.output.items.1.id}}' }], note: 'done' });
    expect(flow.edges).toEqual([{ from: 'list', to: 'close', kind: 'data' }]);
  });

  it('interpolates a value found inside a longer string, longest match first', () => {
    const flow = trace([
      { id: 'a', result: { branch: 'feature/login', short: 'feat' } },
      { id: 'b', args: { cmd: 'git push origin feature/login && echo feature/login' }, depends_on: ['a'] },
    ]);
    expect(flow.params.get('b')).toEqual({ cmd: 'git push origin {{nodes.a.output.branch}} && echo {{nodes.a.output.branch}}' });
    expect(flow.edges).toEqual([{ from: 'a', to: 'b', kind: 'data' }]);
  });

  it('finds a number of 4+ characters inside a longer string by its digits, at value edges only', () => {
    const flow = trace([
      { id: 'create', result: { number: 4521, lat: 48.85, count: 12, year: 2025 } },
      // Two calls away: a short number is traced only from a call the consumer depends on directly.
      { id: 'wait', depends_on: ['create'] },
      { id: 'label', args: { url: 'https://api.example/issues/4521/labels?lat=48.85', note: 'opened #4521: 12 items', when: '2025-12-01', id: 'x4521' }, depends_on: ['wait'] },
    ]);
    expect(flow.params.get('label')).toEqual({
      url: 'https://api.example/issues/{{nodes.create.output.number}}/labels?lat={{nodes.create.output.lat}}',
      note: 'opened #{{nodes.create.output.number}}: 12 items',
      // Inside a date or an id, the digits are part of another value.
      when: '2025-12-01',
      id: 'x4521',
    });
    expect(flow.edges).toContainEqual({ from: 'create', to: 'label', kind: 'data' });
  });

  it('finds a number of 2 or 3 digits only as a whole segment of a URL path or a # reference', () => {
    const flow = trace([
      { id: 'create', result: { number: 812 } },
      { id: 'wait', depends_on: ['create'] },
      { id: 'label', args: { url: 'https://api.example/issues/812/labels', note: 'opened #812', count: 'opened 812 today', page: 'https://api.example/list?page=812', file: '/tmp/812/x' }, depends_on: ['wait'] },
    ]);
    expect(flow.params.get('label')).toEqual({
      url: 'https://api.example/issues/{{nodes.create.output.number}}/labels',
      note: 'opened #{{nodes.create.output.number}}',
      count: 'opened 812 today',
      page: 'https://api.example/list?page=812',
      file: '/tmp/812/x',
    });
  });

  it('finds a number of 2 or 3 digits anywhere when the call the consumer depends on directly returned it', () => {
    const flow = trace([
      { id: 'active', result: { rows: [{ active_start: 2210 }] } },
      { id: 'churned', result: { rows: [{ churned: 96 }] } },
      { id: 'rate', args: { code: 'active = 2210\nchurned = 96\nprint(churned / active)' }, depends_on: ['active', 'churned'] },
      { id: 'post', args: { text: 'churned: 96 of 2210' }, depends_on: ['rate'] },
    ]);
    expect(flow.params.get('rate')).toEqual({ code: 'active = {{nodes.active.output.rows.0.active_start}}\nchurned = {{nodes.churned.output.rows.0.churned}}\nprint(churned / active)' });
    // Two calls away, a short number is as likely another count: only the 4-digit one is traced.
    expect(flow.params.get('post')).toEqual({ text: 'churned: 96 of {{nodes.active.output.rows.0.active_start}}' });
  });

  it('finds a one-digit count only beside a word of its key, from a call the consumer depends on directly', () => {
    const flow = trace([
      { id: 'cert', result: { days_left: 5, retries: 2 } },
      { id: 'post', args: { text: 'cert expires soon (5 days left), tried 2 times', other: 'check 5 hosts' }, depends_on: ['cert'] },
      { id: 'later', args: { text: 'still 5 days left' }, depends_on: ['post'] },
    ]);
    expect(flow.params.get('post')).toEqual({ text: 'cert expires soon ({{nodes.cert.output.days_left}} days left), tried 2 times', other: 'check 5 hosts' });
    expect(flow.params.get('later')).toEqual({ text: 'still 5 days left' });
  });

  it('takes a value produced twice from the nearest ancestor, then the shortest path', () => {
    const flow = trace([
      { id: 'a', result: { id: 'job-7781' } },
      { id: 'b', result: { deep: { id: 'job-7781' }, id: 'job-7781' }, depends_on: ['a'] },
      { id: 'c', args: { job: 'job-7781' }, depends_on: ['b'] },
    ]);
    expect(flow.params.get('c')).toEqual({ job: '{{nodes.b.output.id}}' });
    expect(flow.params.get('b')).toEqual({});
    expect(flow.edges).toEqual([
      { from: 'a', to: 'b', kind: 'control' },
      { from: 'b', to: 'c', kind: 'data' },
    ]);
  });

  it('breaks a tie between equally near producers by node order', () => {
    const flow = trace([
      { id: 'x', result: 'token-123' },
      { id: 'y', result: 'token-123' },
      { id: 'z', args: { t: 'token-123' }, depends_on: ['y', 'x'] },
    ]);
    expect(flow.params.get('z')).toEqual({ t: '{{nodes.x.output}}' });
  });

  it('leaves 0, 1, small integers, short strings, booleans and null alone', () => {
    const flow = trace([
      { id: 'a', result: { n0: 0, n1: 1, ten: 10, s: 'ok', s3: 'a-1', yes: true, nil: null } },
      { id: 'b', args: { n0: 0, n1: 1, ten: 10, s: 'ok', s3: 'a-1', yes: true, nil: null }, depends_on: ['a'] },
    ]);
    expect(flow.params.get('b')).toEqual({ n0: 0, n1: 1, ten: 10, s: 'ok', s3: 'a-1', yes: true, nil: null });
    expect(flow.edges).toEqual([{ from: 'a', to: 'b', kind: 'control' }]);
    expect([isTraceable(11), isTraceable(-2), isTraceable(0.5), isTraceable(-1), isTraceable('abcd')]).toEqual([true, true, true, false, true]);
  });

  it('takes a three-letter word whole from the one ancestor whose result holds it, and from nowhere else', () => {
    const ticket = { id: 'get', result: { priority: 'low', title: 'Typo in invoice footer' } };
    const flow = trace([ticket, { id: 'label', args: { labels: ['triaged', 'low'], note: 'low (typo)' }, depends_on: ['get'] }]);
    expect(flow.params.get('label')).toEqual({ labels: ['triaged', '{{nodes.get.output.priority}}'], note: 'low (typo)' });
    expect(flow.edges).toEqual([{ from: 'get', to: 'label', kind: 'data' }]);
    // Two ancestors holding it, or only an earlier node that is no ancestor: a coincidence as likely as not.
    const two = trace([ticket, { id: 'sla', result: { tier: 'low' } }, { id: 'label', args: { labels: ['low'] }, depends_on: ['get', 'sla'] }]);
    expect(two.params.get('label')).toEqual({ labels: ['low'] });
    const unrelated = trace([{ ...ticket, timestamp: 1 }, { id: 'label', args: { labels: ['low'] }, timestamp: 2 }]);
    expect(unrelated.params.get('label')).toEqual({ labels: ['low'] });
  });

  it('without an ancestor, takes an earlier node by timestamp and adds a data edge', () => {
    const flow = trace([
      { id: 'a', result: { url: 'https://x.example/r/42' }, timestamp: 1000 },
      { id: 'b', args: { u: 'https://x.example/r/42' }, timestamp: 2000 },
    ]);
    expect(flow.params.get('b')).toEqual({ u: '{{nodes.a.output.url}}' });
    expect(flow.edges).toEqual([{ from: 'a', to: 'b', kind: 'data' }]);
  });

  it('without an ancestor or an earlier timestamp, keeps the literal', () => {
    const flow = trace([
      { id: 'a', result: { url: 'https://x.example/r/42' } },
      { id: 'b', args: { u: 'https://x.example/r/42' } },
      { id: 'c', result: { v: 'value-9' }, timestamp: 3000 },
      { id: 'd', args: { v: 'value-9' }, timestamp: 3000 },
    ]);
    expect(flow.params.get('b')).toEqual({ u: 'https://x.example/r/42' });
    expect(flow.params.get('d')).toEqual({ v: 'value-9' });
    expect(flow.edges).toEqual([]);
  });

  it('never links a node to itself or creates a cycle', () => {
    const flow = trace([
      // "a" echoes its own arg; "c" is earlier by clock but downstream of "b" through depends_on.
      { id: 'a', args: { s: 'self-value' }, result: { s: 'self-value' } },
      { id: 'b', args: { v: 'from-c-value' }, timestamp: 2000 },
      { id: 'c', result: { v: 'from-c-value' }, timestamp: 1000, depends_on: ['b'] },
    ]);
    expect(flow.params.get('a')).toEqual({ s: 'self-value' });
    expect(flow.params.get('b')).toEqual({ v: 'from-c-value' });
    expect(flow.edges).toEqual([{ from: 'b', to: 'c', kind: 'control' }]);
  });

  it('skips result keys a reference cannot name', () => {
    const flow = trace([
      { id: 'a', result: { 'a.b': 'dotted-key', ok: 'plain-key' } },
      { id: 'b', args: { x: 'dotted-key', y: 'plain-key' }, depends_on: ['a'] },
    ]);
    expect(flow.params.get('b')).toEqual({ x: 'dotted-key', y: '{{nodes.a.output.ok}}' });
  });
});

describe('value provenance of whole arrays and objects', () => {
  it('passes an array or object taken from a result as one reference, before tracing leaves', () => {
    const flow = trace([
      { id: 'load_a', result: { rows: [{ id: 1, v: 'alpha' }], path: 'a.csv', opts: { retries: 3 } } },
      { id: 'load_b', result: { rows: [{ id: 2, v: 'bravo' }], meta: { source: 'b.csv', rows: 1 } } },
      {
        id: 'merge',
        args: { left: [{ id: 1, v: 'alpha' }], right: [{ v: 'bravo', id: 2 }], meta: { rows: 1, source: 'b.csv' }, out: 'a.csv', opts: { retries: 3 } },
        depends_on: ['load_a', 'load_b'],
      },
    ]);
    expect(flow.params.get('merge')).toEqual({
      left: '{{nodes.load_a.output.rows}}',
      right: '{{nodes.load_b.output.rows}}',
      meta: '{{nodes.load_b.output.meta}}',
      out: '{{nodes.load_a.output.path}}',
      // Equal by coincidence, with nothing distinctive in it: no evidence of data flow.
      opts: { retries: 3 },
    });
    expect(flow.edges).toEqual([
      { from: 'load_a', to: 'merge', kind: 'data' },
      { from: 'load_b', to: 'merge', kind: 'data' },
    ]);
  });

  it('passes on a report of three or more scalars without a distinctive one; two are a coincidence', () => {
    const report = { status: 'ok', database: { ok: true }, queue: { ok: true } };
    const flow = trace([
      { id: 'probe', result: { code: 200, body: report, opts: { ok: true, dry: false } } },
      { id: 'pick', args: { from: { queue: { ok: true }, status: 'ok', database: { ok: true } }, flags: { ok: true, dry: false } }, depends_on: ['probe'] },
    ]);
    expect(flow.params.get('pick')).toEqual({ from: '{{nodes.probe.output.body}}', flags: { ok: true, dry: false } });
    expect(flow.edges).toEqual([{ from: 'probe', to: 'pick', kind: 'data' }]);
  });

  it('references a whole result, and never an empty array or object', () => {
    const flow = trace([
      { id: 'list', result: ['issue-1', 'issue-2'] },
      { id: 'empty', result: { items: [], opts: {} }, depends_on: ['list'] },
      { id: 'close', args: { ids: ['issue-1', 'issue-2'], items: [], opts: {} }, depends_on: ['empty'] },
    ]);
    expect(flow.params.get('close')).toEqual({ ids: '{{nodes.list.output}}', items: [], opts: {} });
    expect(flow.edges).toEqual([
      { from: 'list', to: 'empty', kind: 'control' },
      { from: 'empty', to: 'close', kind: 'control' },
      { from: 'list', to: 'close', kind: 'data' },
    ]);
  });
});
