/**
 * The plan a run is pinned to, as its start event (or its sub-plan pin) carries it.
 */
import type { MemoryRecord, PlanGraphPayload } from './records';

/** The plan a run is pinned to: later edits of the stored record never reach it. */
export interface PlanSnapshot {
  record_id: string;
  revision: number;
  payload: PlanGraphPayload;
}

/**
 * Pins a stored plan for a run. The plan's searchable text (description and up to 100 example
 * phrasings) stays in the store: no run reads it, and every run's history would store it again.
 */
export function planSnapshot(record: Pick<MemoryRecord, 'id' | 'revision'>, payload: PlanGraphPayload): PlanSnapshot {
  const { description: _description, examples: _examples, ...runnable } = payload;
  return { record_id: record.id, revision: record.revision, payload: runnable };
}
