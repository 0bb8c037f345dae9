/**
 * Which inputs of a learned plan keep a default: the tuning knobs among the args its twins
 * passed differently (generalise.ts).
 */
import { canonicalJson } from '../domain/canonical-json';
import type { InputSet } from './input-schema';

/**
 * Which of the inputs the twins passed differently are tuning knobs (a reporter, a page size):
 * none of their values is named by a task, and the twins stated the same values in their tasks,
 * so the arg varied with something other than the job. Such an input keeps the first twin's
 * value as its default, so a request that ran before still runs. An arg that varied where the
 * tasks did (a report's total beside its region) may follow from the task, and a date or an id
 * made for each run (`since`, a request id) is stale in the next: each stays required, as do
 * inputs the tasks name, rather than run silently with an earlier episode's value.
 */
export function knobs(inputs: InputSet, differing: ReadonlySet<string>, named: (value: unknown) => boolean): string[] {
  if ([...differing].some((name) => inputs.examples(name).some(named))) return [];
  return [...differing].filter((name) => !inputs.hasDefault(name) && !inputs.isOptional(name) && !inputs.examples(name).some(madeForEachRun));
}

/** A value an episode made for its own run, or holding one: a date or instant, or a UUID (`…?created_at_min=2026-11-20`, `orders-2026-11-20.csv`). */
const madeForEachRun = (value: unknown) => typeof value === 'string' && (DATE.test(value) || UUID.test(value));
const DATE = /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/;
const UUID = /(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])/i;

/** Whether the twin passed a value other than the first twin's (an input's first example). */
export function differsFromFirst(inputs: InputSet, name: string, values: readonly unknown[]): boolean {
  const first = canonicalJson(inputs.examples(name)[0]);
  return values.some((value) => canonicalJson(value) !== first);
}
