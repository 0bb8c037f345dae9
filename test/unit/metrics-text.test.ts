import { describe, expect, it } from 'vitest';
import { prometheusText } from '../../src/api/routes/metrics';
import { idempotentWorkflowId } from '../../src/intents/submit-intent';
import type { Stats } from '../../src/store/stats';

const stats: Stats = {
  plan_reuse_frequency: 1.5,
  active_plans: 2,
  records: { episodic: 3, plan_graph: 2, competence: 1 },
  plans_by_status: { active: 2, superseded: 0, retracted: 0, merged: 0 },
  runs: { running: 1, succeeded: 4, failed: 2, cancelled: 0, total: 7 },
  consolidation: { passes: 2, scanned: 10, eligible: 4, created: 2, skipped: 2, competences_created: 1, competences_reinforced: 3 },
};

describe('prometheusText', () => {
  const text = prometheusText(stats);
  const lines = text.trimEnd().split('\n');

  it('writes one sample per figure, labelled breakdowns included', () => {
    expect(lines).toContain('plangraph_plan_reuse_frequency 1.5');
    expect(lines).toContain('plangraph_runs_total{status="succeeded"} 4');
    // A counter must never fall: running runs (which do) are a gauge of their own.
    expect(lines).toContain('plangraph_runs_running 1');
    expect(lines.some((l) => l.startsWith('plangraph_runs_total{status="running"}'))).toBe(false);
    expect(lines).toContain('# TYPE plangraph_runs_running gauge');
    expect(lines).toContain('plangraph_records{type="competence"} 1');
    expect(lines).toContain('plangraph_consolidation_plans_created_total 2');
    expect(lines).toContain('plangraph_consolidation_competences_total{action="reinforced"} 3');
    expect(lines.some((l) => l.includes('status="total"'))).toBe(false);
  });

  it('is valid exposition format: HELP and TYPE before each family, every sample "name{labels} number"', () => {
    const families = new Set<string>();
    for (const line of lines) {
      const meta = /^# (HELP|TYPE) (\w+) (.+)$/.exec(line);
      if (meta) {
        families.add(meta[2]!);
        continue;
      }
      const sample = /^(\w+)(\{(\w+="[^"]*",?)+\})? (-?\d+(\.\d+)?)$/.exec(line);
      expect(sample, line).not.toBeNull();
      expect(families.has(sample![1]!), `${line} before its TYPE`).toBe(true);
    }
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('idempotentWorkflowId', () => {
  it('is stable per principal and key, and differs across principals', () => {
    expect(idempotentWorkflowId({ name: 'a' }, 'k')).toBe(idempotentWorkflowId({ name: 'a' }, 'k'));
    expect(idempotentWorkflowId({ name: 'a' }, 'k')).not.toBe(idempotentWorkflowId({ name: 'b' }, 'k'));
    // The separator keeps ("ab", "c") and ("a", "bc") apart.
    expect(idempotentWorkflowId({ name: 'ab' }, 'c')).not.toBe(idempotentWorkflowId({ name: 'a' }, 'bc'));
  });
});
