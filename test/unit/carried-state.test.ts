import { describe, expect, it } from 'vitest';
import { CARRIED_ERROR_MESSAGE_BYTES, type PartitionSlice } from '../../src/domain/partitioning';
import type { PlanNode } from '../../src/domain/records';
import type { NodeStatus, PartitionedRunInput } from '../../src/domain/run-state';
import { foldPartition, initialCarried, partitionedStatus } from '../../workflows/carried-state';

const input: PartitionedRunInput = {
  partitioned: { plan_record_id: 'r', plan_revision: 1, plan_id: 'p', intent: 'i', node_count: 6, partition_size: 2, constraints: { failure_policy: 'fail_fast' } },
  inputs: {},
};
const node = (id: string, tolerated = false) => ({ id, op: 'noop', params: {}, ...(tolerated ? { policy: { continue_on_error: true } } : {}) }) as PlanNode;
const slice = (first: number, nodes: PlanNode[], carry: string[]): PartitionSlice => ({ index: first / 2, partitions: 3, node_count: 6, first, nodes, external: [], edges: [], carry });
const status = (...s: Array<[string, NodeStatus['state'], unknown?]>) => new Map(s.map(([id, state, output]) => [id, { id, op: 'noop', state, attempts: 1, output }]));

describe('carried state of a partitioned run', () => {
  it('writes the partition into the state codes and keeps only outputs later partitions read', () => {
    const start = initialCarried(input, new Date('2026-01-01T00:00:00Z'), 'run-1', Date.parse('2026-01-01T00:01:00Z'));
    expect(start).toMatchObject({ states: 'pppppp', deadline_ms: Date.parse('2026-01-01T00:01:00Z'), first_run_id: 'run-1' });
    const next = foldPartition(start, slice(0, [node('a'), node('b')], ['b']), status(['a', 'succeeded', { x: 1 }], ['b', 'succeeded', { y: 2 }]), false);
    expect(next).toMatchObject({ partition: 1, states: 'sspppp', outputs: { b: { y: 2 } } });
    // An earlier output stays only while still listed.
    const later = foldPartition(next, slice(2, [node('c'), node('d')], []), status(['c', 'succeeded'], ['d', 'skipped']), false);
    expect(later).toMatchObject({ states: 'sssk' + 'pp', outputs: {} });
  });

  it('counts failures that fail the run apart from tolerated ones, and cancels what never ran when ending', () => {
    const start = initialCarried(input, new Date(0), 'run-1', undefined);
    const ended = foldPartition(start, slice(0, [node('a'), node('b', true)], []), status(['a', 'failed'], ['b', 'failed']), true);
    expect(ended).toMatchObject({ states: 'ftcccc', blocking_failures: 1, blocking_ids: ['a'] });
    expect(ended.failures.map((f) => f.id)).toEqual(['a', 'b']);
    const shown = partitionedStatus(input, ended, undefined, [], { state: 'failed' });
    expect(shown.partitioned?.counts).toMatchObject({ failed: 2, cancelled: 4, pending: 0 });
    expect(shown.nodes.map((n) => n.id)).toEqual(['a', 'b']);
  });

  it("carries failures' messages cut to CARRIED_ERROR_MESSAGE_BYTES, so 50 of them fit the room the start-time bound keeps", () => {
    const failed = new Map([['a', { id: 'a', op: 'fail', state: 'failed' as const, attempts: 1, error: { type: 'verbose', message: 'é'.repeat(5_000) } }]]);
    const next = foldPartition(initialCarried(input, new Date(0), 'run-1', undefined), slice(0, [node('a'), node('b')], []), failed, false);
    const message = next.failures[0]!.error!.message;
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(CARRIED_ERROR_MESSAGE_BYTES);
    expect(message).toMatch(/^é+ … \[truncated: 10000 bytes in all\]$/);
  });
});
