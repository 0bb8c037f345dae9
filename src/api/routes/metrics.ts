/** GET /metrics: the stats in Prometheus' text exposition format. */
import { z } from 'zod';
import type { Services } from '../../services';
import { createStatsStore, type Stats } from '../../store/stats';
import { defineRoute } from '../route';
import { renderProcessMetrics } from '../../telemetry/metrics';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Sample = [labels: Record<string, string>, value: number];

function family(name: string, type: 'gauge' | 'counter', help: string, samples: Sample[]): string[] {
  const line = ([labels, value]: Sample) => {
    const pairs = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
    return `${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${value}`;
  };
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples.map(line)];
}

/** Renders the stats as Prometheus text (one family per figure, labels for the breakdowns). */
export function prometheusText(stats: Stats): string {
  const { consolidation } = stats;
  return [
    ...family('plangraph_plan_reuse_frequency', 'gauge', 'Mean execution_count over all active plan graphs', [[{}, stats.plan_reuse_frequency]]),
    ...family('plangraph_active_plans', 'gauge', 'Active plan graphs', [[{}, stats.active_plans]]),
    ...family('plangraph_records', 'gauge', 'Memory records by type', Object.entries(stats.records).map(([type, n]): Sample => [{ type }, n])),
    // Finished runs only ever grow (rows are never deleted), so they are a counter; running ones rise and fall.
    ...family(
      'plangraph_runs_total',
      'counter',
      'Plan runs finished, by status',
      Object.entries(stats.runs)
        .filter(([status]) => status !== 'total' && status !== 'running')
        .map(([status, n]): Sample => [{ status }, n]),
    ),
    ...family('plangraph_runs_running', 'gauge', 'Plan runs started and not yet finished', [[{}, stats.runs.running]]),
    ...family('plangraph_consolidation_passes_total', 'counter', 'Consolidation passes finished', [[{}, consolidation.passes]]),
    ...family('plangraph_consolidation_episodes_scanned_total', 'counter', 'Episodes scanned by consolidation', [[{}, consolidation.scanned]]),
    ...family('plangraph_consolidation_episodes_eligible_total', 'counter', 'Episodes eligible to become plan graphs', [[{}, consolidation.eligible]]),
    ...family('plangraph_consolidation_plans_created_total', 'counter', 'Plan graphs created by consolidation', [[{}, consolidation.created]]),
    ...family('plangraph_consolidation_episodes_skipped_total', 'counter', 'Eligible episodes skipped (already consolidated or deduplicated)', [
      [{}, consolidation.skipped],
    ]),
    ...family('plangraph_consolidation_competences_total', 'counter', 'Competences created or reinforced by consolidation', [
      [{ action: 'created' }, consolidation.competences_created],
      [{ action: 'reinforced' }, consolidation.competences_reinforced],
    ]),
    '',
  ].join('\n');
}

/** The metrics route over the given services. */
export function metricsRoutes(services: Services) {
  const stats = createStatsStore(services.db);
  return [
    defineRoute({
      method: 'GET',
      url: '/metrics',
      summary: 'Prometheus metrics: plan reuse frequency, runs by status, records by type, consolidation totals, retrieval latency, selection decisions',
      tags: ['system'],
      response: z.string(),
      handler: async ({ reply }) => {
        void reply.type(PROMETHEUS_CONTENT_TYPE);
        // Figures from the database (every process agrees), then this process's own (latencies, decisions).
        return prometheusText(await stats.snapshot()) + [...renderProcessMetrics(), ''].join('\n');
      },
    }),
  ];
}
