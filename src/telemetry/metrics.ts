/**
 * In-process metrics of the process that serves the API (retrieval latency, selection decisions),
 * rendered in Prometheus' text format by GET /metrics. Each process counts its own, as
 * Prometheus expects of instances it scrapes; the worker's figures live in the Temporal runtime's
 * endpoint instead (src/temporal/worker-metrics.ts).
 */

type Labels = Record<string, string>;

const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

function labelText(labels: Labels, extra: Labels = {}): string {
  const pairs = Object.entries({ ...labels, ...extra }).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
}

interface Metric {
  render(): string[];
}

const registry: Metric[] = [];

/** A counter by labels. */
export function counter(name: string, help: string) {
  const values = new Map<string, { labels: Labels; value: number }>();
  registry.push({
    render: () => [`# HELP ${name} ${help}`, `# TYPE ${name} counter`, ...[...values.values()].map(({ labels, value }) => `${name}${labelText(labels)} ${value}`)],
  });
  return {
    inc(labels: Labels = {}, by = 1): void {
      const entry = values.get(key(labels)) ?? { labels, value: 0 };
      entry.value += by;
      values.set(key(labels), entry);
    },
  };
}

/** A histogram of seconds by labels, with cumulative buckets as Prometheus defines them. */
export function histogram(name: string, help: string, buckets: readonly number[]) {
  const series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  registry.push({
    render: () => [
      `# HELP ${name} ${help}`,
      `# TYPE ${name} histogram`,
      ...[...series.values()].flatMap(({ labels, counts, sum, count }) => [
        ...buckets.map((le, i) => `${name}_bucket${labelText(labels, { le: String(le) })} ${counts[i]}`),
        `${name}_bucket${labelText(labels, { le: '+Inf' })} ${count}`,
        `${name}_sum${labelText(labels)} ${sum}`,
        `${name}_count${labelText(labels)} ${count}`,
      ]),
    ],
  });
  const observe = (value: number, labels: Labels = {}): void => {
    const entry = series.get(key(labels)) ?? { labels, counts: buckets.map(() => 0), sum: 0, count: 0 };
    buckets.forEach((le, i) => {
      if (value <= le) entry.counts[i]! += 1;
    });
    entry.sum += value;
    entry.count += 1;
    series.set(key(labels), entry);
  };
  return {
    observe,
    /** Times `fn` and observes its duration, whether it succeeds or throws. */
    async time<T>(fn: () => Promise<T>, labels: Labels = {}): Promise<T> {
      const started = performance.now();
      try {
        return await fn();
      } finally {
        observe((performance.now() - started) / 1000, labels);
      }
    },
  };
}

/** Every in-process metric as Prometheus text lines. */
export function renderProcessMetrics(): string[] {
  return registry.flatMap((metric) => metric.render());
}

/** Latency buckets (seconds) for requests answered within a process: 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Retrieval: each ranking of records for a task (intents, /v1/retrieve, the CLI's retrieve). */
export const retrievalDuration = histogram('plangraph_retrieval_duration_seconds', 'Time to rank the records matching a task', LATENCY_BUCKETS);

/** What selection decided for an intent without plan_id: run the top plan, ask for more, or nothing to pick. */
export const selectionDecisions = counter('plangraph_selection_decisions_total', 'Selection decisions for intents by outcome (auto_run, refused, needs_more, none)');
