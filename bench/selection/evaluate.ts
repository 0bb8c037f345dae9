/**
 * Selection quality over the labelled set: top-1, mean reciprocal rank, auto-run rate and
 * auto-run precision, overall and by kind of phrasing.
 */
import { PHRASING_KINDS, type LabelledQuery, type PhrasingKind } from './labelled-set';

/** What one query came back with: the labelled plan's rank (1-based, 0 = absent) and the verdict. */
export interface QueryOutcome {
  query: LabelledQuery;
  rank: number;
  autoRun: boolean;
  /** The top candidate does another action than the phrasing's verb asks for: held back whatever the confidence. */
  withheld: boolean;
  confidence: number;
  /** The top candidate's match and its score margin over the runner-up: what the confidence is fitted on. */
  top: number;
  margin: number;
}

export interface SelectionMetrics {
  queries: number;
  top1: number;
  mrr: number;
  autoRunRate: number;
  /** Share of auto-run queries whose top candidate is the labelled plan (1 when none auto-ran). */
  precision: number;
}

/** The four figures over a set of outcomes. */
export function metricsOf(outcomes: readonly QueryOutcome[]): SelectionMetrics {
  const n = outcomes.length || 1;
  const autoRun = outcomes.filter((o) => o.autoRun);
  return {
    queries: outcomes.length,
    top1: outcomes.filter((o) => o.rank === 1).length / n,
    mrr: outcomes.reduce((sum, o) => sum + (o.rank > 0 ? 1 / o.rank : 0), 0) / n,
    autoRunRate: autoRun.length / n,
    precision: autoRun.length === 0 ? 1 : autoRun.filter((o) => o.rank === 1).length / autoRun.length,
  };
}

/** Metrics overall and per phrasing kind. */
export function metricsByKind(outcomes: readonly QueryOutcome[]): Record<'overall' | PhrasingKind, SelectionMetrics> {
  const byKind = Object.fromEntries(PHRASING_KINDS.map((kind) => [kind, metricsOf(outcomes.filter((o) => o.query.kind === kind))]));
  return { overall: metricsOf(outcomes), ...byKind } as Record<'overall' | PhrasingKind, SelectionMetrics>;
}

const f2 = (v: number) => v.toFixed(2);

/** One line summarising a variant's metrics, for the scenario's notes. */
export function describeMetrics(name: string, m: Record<'overall' | PhrasingKind, SelectionMetrics>): string {
  // Kinds with no phrasing asked are left out rather than shown as 0.
  const asked = PHRASING_KINDS.filter((k) => m[k].queries > 0);
  const kinds = asked.map((k) => `${k} ${f2(m[k].top1)}`).join(', ');
  const autoKinds = asked.map((k) => `${k} ${f2(m[k].autoRunRate)}/${f2(m[k].precision)}`).join(', ');
  return (
    `${name}: top-1 ${f2(m.overall.top1)} (${kinds}), MRR ${f2(m.overall.mrr)}, auto-run ${f2(m.overall.autoRunRate)} at precision ` +
    `${f2(m.overall.precision)} (auto-run/precision by kind: ${autoKinds})`
  );
}
