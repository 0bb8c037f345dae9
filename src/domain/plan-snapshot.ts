/**
 * The plan a run is pinned to, as its start event (or its sub-plan pin) carries it.
 */
import type { MemoryRecord, PlanGraphPayload } from './records';

/** The plan a run is pinned to: later edits of the stored record never reach it. */
export interface PlanSnapshot {
  record_id: string;
  revision: number;
  payload: RunnablePlan;
}

/** A plan as a run reads it: no searchable text, no metrics (they change after the run starts). */
export type RunnablePlan = Omit<PlanGraphPayload, 'description' | 'examples' | 'metrics'>;

/**
 * Pins a stored plan for a run. The plan's searchable text (description and up to 100 example
 * phrasings) and its metrics stay in the store: no run reads them, every run's history would
 * store them again, and the metrics in a run's input would be stale once other runs end.
 */
export function planSnapshot(record: Pick<MemoryRecord, 'id' | 'revision'>, payload: PlanGraphPayload): PlanSnapshot {
  const { description: _description, examples: _examples, metrics: _metrics, ...runnable } = payload;
  return { record_id: record.id, revision: record.revision, payload: runnable };
}
