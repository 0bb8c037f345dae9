/** What a scenario is and what it reports. */
import type { BenchEnv } from './environment';
import { medianInterval, round } from './stats';

export interface Target {
  op: '<=' | '>=' | '==';
  value: number;
}

/** One reported number; a figure with a target is checked against it. */
export interface Figure {
  label: string;
  value: number | string;
  unit?: string;
  target?: Target;
}

export interface ScenarioResult {
  figures: Figure[];
  /** Findings of this run, with numbers (causes of misses, history counts, …). */
  notes: string[];
}

export interface Scenario {
  /** The name `npm run bench -- NAME` selects. */
  name: string;
  title: string;
  /** How it is measured and what "ideal" means, for BENCHMARKS.md. */
  method: string;
  /** What the figures mean and why a target is missed: mechanisms; this run's numbers are in the notes. */
  analysis?: string;
  run(env: BenchEnv, log: (line: string) => void): Promise<ScenarioResult>;
}

/** Whether a figure meets its target; undefined when it has none or is not a number. */
export function meets(figure: Figure): boolean | undefined {
  if (!figure.target || typeof figure.value !== 'number') return undefined;
  const { op, value } = figure.target;
  if (op === '<=') return figure.value <= value;
  if (op === '>=') return figure.value >= value;
  return figure.value === value;
}

/** The interval of a paired ratio's median, as two figures to show beside the median itself. */
export function medianIntervalFigures(label: string, ratios: readonly number[]): Figure[] {
  const interval = medianInterval(ratios);
  const confidence = `${Math.floor(interval.coverage * 100)}%`;
  return [
    { label: `${label}: ${confidence} interval of the median, low end`, value: round(interval.low) },
    { label: `${label}: ${confidence} interval of the median, high end`, value: round(interval.high) },
  ];
}
