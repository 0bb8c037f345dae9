import { describe, expect, it } from 'vitest';
import { validatePlanGraph } from '../../src/domain/graph';
import { durationMs, localExecutionProblems, runsLocally } from '../../src/domain/node-execution';
import { planGraphPayloadSchema, type PlanGraphPayloadInput } from '../../src/domain/records';

const plan = (nodes: PlanGraphPayloadInput['nodes']) => planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: 'p', intent: 'test', nodes });
const LOCAL_OPS = new Set(['echo', 'noop']);

describe('durationMs', () => {
  it('reads every duration form a plan may use', () => {
    expect([durationMs('250ms'), durationMs('1.5s'), durationMs('5m'), durationMs('2h'), durationMs(40)]).toEqual([250, 1500, 300_000, 7_200_000, 40]);
    expect(durationMs('soon')).toBeNaN();
  });
});

describe('runsLocally', () => {
  it('follows the op declaration unless the node policy decides', () => {
    expect(runsLocally({ op: 'echo' }, LOCAL_OPS)).toBe(true);
    expect(runsLocally({ op: 'http_request' }, LOCAL_OPS)).toBe(false);
    expect(runsLocally({ op: 'echo', policy: { execution: 'activity' } }, LOCAL_OPS)).toBe(false);
    expect(runsLocally({ op: 'http_request', policy: { execution: 'local' } }, LOCAL_OPS)).toBe(true);
  });

  it('runs a local op as an activity when its policy needs one (long timeout, heartbeat, task queue)', () => {
    expect(runsLocally({ op: 'echo', policy: { start_to_close_timeout: '30s' } }, LOCAL_OPS)).toBe(true);
    expect(runsLocally({ op: 'echo', policy: { start_to_close_timeout: '31s' } }, LOCAL_OPS)).toBe(false);
    expect(runsLocally({ op: 'echo', policy: { heartbeat_timeout: '5s' } }, LOCAL_OPS)).toBe(false);
    expect(runsLocally({ op: 'echo', policy: { task_queue: 'gpu' } }, LOCAL_OPS)).toBe(false);
  });
});

describe('validating policy.execution', () => {
  it('accepts a local node within the cap', () => {
    expect(validatePlanGraph(plan([{ id: 'a', op: 'sleep', policy: { execution: 'local', start_to_close_timeout: '2s' } }]))).toEqual([]);
    expect(localExecutionProblems({ policy: { start_to_close_timeout: 30_000 } })).toEqual([]);
  });

  it('refuses a local node that could run long, heartbeat or run elsewhere, naming node, path and reason', () => {
    const issues = validatePlanGraph(
      plan([
        { id: 'ok', op: 'noop' },
        { id: 'long', op: 'sleep', policy: { execution: 'local', start_to_close_timeout: '5m', heartbeat_timeout: '10s', task_queue: 'gpu' } },
      ]),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['invalid_execution', 'nodes[1].policy.execution'],
      ['invalid_execution', 'nodes[1].policy.execution'],
      ['invalid_execution', 'nodes[1].policy.execution'],
    ]);
    expect(issues.map((i) => i.message).join('\n')).toMatch(/node "long" cannot run locally: its start_to_close_timeout 5m exceeds the 30s cap[\s\S]*heartbeat[\s\S]*task_queue/);
  });

  it('rejects an unknown execution mode at the schema', () => {
    expect(planGraphPayloadSchema.safeParse({ kind: 'plan_graph', plan_id: 'p', intent: 't', nodes: [{ id: 'a', op: 'noop', policy: { execution: 'remote' } }] }).success).toBe(false);
  });
});
