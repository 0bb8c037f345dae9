/**
 * The run-outcome sink's timing: the workflow task waits for a write that goes through, never
 * longer than its bound, and a failed write is retried in the background until it is taken.
 * (The exactly-once statement itself is tested against Postgres: executor-metrics.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { RunOutcome } from '../../src/domain/run-state';
import { createRunOutcomeSink } from '../../src/runs/outcome-sink';

const outcome: RunOutcome = {
  plan_record_id: 'plan',
  plan_revision: 1,
  workflow_id: 'wf',
  run_id: 'run',
  status: 'succeeded',
  started_at: '2026-11-25T10:00:00.000Z',
  finished_at: '2026-11-25T10:00:01.000Z',
  latency_ms: 1000,
};
const quiet = { warn() {}, info() {} };
const info = {} as WorkflowInfo;

/** A store whose closeRun fails `failures` times, then takes the outcome after `latencyMs`. */
function flakyStore(failures: number, latencyMs = 0) {
  const calls: number[] = [];
  const taken: RunOutcome[] = [];
  return {
    calls,
    taken,
    async closeRun(o: RunOutcome) {
      calls.push(Date.now());
      if (calls.length <= failures) throw new Error('connection refused');
      await new Promise((r) => setTimeout(r, latencyMs));
      taken.push(o);
      return true;
    },
  };
}

describe('the run-outcome sink', () => {
  it('returns once the outcome is written', async () => {
    const runs = flakyStore(0);
    const { sinks, pending } = createRunOutcomeSink({ runs, log: quiet });
    await sinks.runOutcome.record.fn(info, outcome);
    expect(runs.taken).toEqual([outcome]);
    expect(pending()).toBe(0);
    expect(sinks.runOutcome.record.callDuringReplay).toBe(false);
  });

  it('retries a failed write with growing backoff and returns once it is taken', async () => {
    const runs = flakyStore(3);
    const { sinks, pending } = createRunOutcomeSink({ runs, log: quiet, retryInitialMs: 20 });
    await sinks.runOutcome.record.fn(info, outcome);
    expect(runs.taken).toEqual([outcome]);
    expect(runs.calls).toHaveLength(4);
    const gaps = runs.calls.slice(1).map((t, i) => t - runs.calls[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[2]).toBeGreaterThanOrEqual(2 * gaps[0]!);
    expect(pending()).toBe(0);
  });

  it('lets the workflow task go after its bound and keeps retrying in the background', async () => {
    const runs = flakyStore(5);
    const { sinks, pending } = createRunOutcomeSink({ runs, log: quiet, waitMs: 50, retryInitialMs: 40, retryMaxMs: 40 });
    const began = Date.now();
    await sinks.runOutcome.record.fn(info, outcome);
    expect(Date.now() - began).toBeLessThan(150);
    expect(runs.taken).toEqual([]);
    expect(pending()).toBe(1);
    await expect.poll(() => runs.taken.length, { timeout: 2_000 }).toBe(1);
    expect(runs.calls).toHaveLength(6);
    expect(pending()).toBe(0);
  });
});
