import { describe, expect, it } from 'vitest';
import { counter, histogram, renderProcessMetrics } from '../../src/telemetry/metrics';
import { tracesUrl as tracesUrlFor } from '../../src/telemetry/tracing';

describe('in-process metrics', () => {
  it('renders a counter by labels, escaping label values', () => {
    const c = counter('test_decisions_total', 'Decisions');
    c.inc({ decision: 'auto_run' });
    c.inc({ decision: 'auto_run' });
    c.inc({ decision: 'say "no"\\' });
    const text = renderProcessMetrics().join('\n');
    expect(text).toContain('# TYPE test_decisions_total counter');
    expect(text).toContain('test_decisions_total{decision="auto_run"} 2');
    expect(text).toContain('test_decisions_total{decision="say \\"no\\"\\\\"} 1');
  });

  it('renders a histogram with cumulative buckets, +Inf, sum and count', async () => {
    const h = histogram('test_latency_seconds', 'Latency', [0.1, 1]);
    h.observe(0.05);
    h.observe(0.5);
    h.observe(3);
    await expect(h.time(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const lines = renderProcessMetrics().filter((l) => l.startsWith('test_latency_seconds'));
    expect(lines).toEqual([
      'test_latency_seconds_bucket{le="0.1"} 2',
      'test_latency_seconds_bucket{le="1"} 3',
      'test_latency_seconds_bucket{le="+Inf"} 4',
      expect.stringMatching(/^test_latency_seconds_sum 3\.55\d*$/),
      'test_latency_seconds_count 4',
    ]);
  });

  it('sends spans to the traces endpoint, or <endpoint>/v1/traces, or nowhere', () => {
    expect(tracesUrlFor({})).toBeUndefined();
    expect(tracesUrlFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrlFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/traces' })).toBe('http://b/traces');
  });
});
