/** The CLI's run views: a partitioned run says how many nodes it has and where to see them all. */
import { describe, expect, it } from 'vitest';
import { formatRunList, formatRunNodes, formatRunView } from '../../src/cli/commands/runs';
import type { RunView } from '../../src/intents/schemas';
import type { RunList } from '../../src/store/run-list';

const view = (partitioned?: NonNullable<RunView['result']>['partitioned']): RunView => ({
  workflow_id: 'plan-w1',
  run_id: 'r1',
  plan_id: 'p1',
  state: 'running',
  started_at: '2026-11-23T10:00:00.000Z',
  closed_at: null,
  status: {
    plan_record_id: 'p1', plan_revision: 1, plan_id: 'big', intent: 'big_job', state: 'running', started_at: '2026-11-23T10:00:00.000Z',
    nodes: [{ id: 'n4', op: 'noop', state: 'running', attempts: 1 }],
    ...(partitioned ? { partitioned } : {}),
  },
  record: null,
  ui_url: 'http://ui/x',
});

describe('formatRunView', () => {
  it('summarises a partitioned run and points to the full node list', () => {
    const counts = { pending: 3, running: 1, waiting: 0, succeeded: 4, failed: 0, skipped: 0, cancelled: 0 };
    const text = formatRunView(view({ partition: 1, partitions: 2, partition_size: 4, node_count: 8, counts, node_states: 'ssssrppp' }));
    expect(text).toContain('nodes     8 in 2 partitions: 3 pending, 1 running, 4 succeeded');
    expect(text).toContain('partition 2 and earlier failures (every node: plangraph runs nodes plan-w1)');
  });

  it('says nothing of partitions for a run in one history', () => {
    expect(formatRunView(view())).not.toContain('partitions');
  });
});

describe('formatRunNodes', () => {
  it('shows a page of nodes and how to get the next', () => {
    const text = formatRunNodes({ workflow_id: 'plan-w1', node_count: 8, matching: 5, offset: 2, nodes: [{ node_id: 'n2', op: 'noop', state: 'failed' }] });
    expect(text.split('\n')).toEqual(['run plan-w1: nodes 3–3 of 5 (of 8 in all)', '  failed    n2 [noop]', '  … next page: --offset 3']);
  });

  it('an empty page says so', () => {
    expect(formatRunNodes({ workflow_id: 'w', node_count: 2, matching: 0, offset: 0, nodes: [] })).toBe('run w: nodes 0–0 of 0 (of 2 in all)');
  });
});

describe('formatRunList', () => {
  const run = (workflow_id: string, started_at: string, more: Partial<RunList['items'][number]> = {}): RunList['items'][number] => ({
    workflow_id, run_id: 'r', plan_id: 'p', plan_revision: 1, intent: 'greet', state: 'succeeded', started_at, finished_at: null, latency_ms: 20, error: null, ...more,
  });

  it('shows one line per run with its error, and the flag for older runs when there are more', () => {
    const list = { next_cursor: 'WyIyMDI2Il0', items: [run('w2', '2026-11-28T10:00:01.000Z'), run('w1', '2026-11-28T10:00:00.000Z', { state: 'failed', latency_ms: null, error: { type: 'run_failed', message: 'nodes failed: a\nmore' } })] };
    expect(formatRunList(list).split('\n')).toEqual([
      '2026-11-28T10:00:01.000Z  succeeded      20 ms  w2  greet',
      '2026-11-28T10:00:00.000Z  failed                w1  greet  run_failed: nodes failed: a',
      '… older runs: --cursor WyIyMDI2Il0',
    ]);
    expect(formatRunList({ ...list, next_cursor: null })).not.toContain('older runs');
  });

  it('an empty page says so', () => {
    expect(formatRunList({ items: [], next_cursor: null })).toBe('no runs');
  });
});
