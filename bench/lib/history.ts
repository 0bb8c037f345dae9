/** What a workflow's history says about how it ran: events, workflow tasks, activities. */
import type { WorkflowHandle } from '@temporalio/client';

export interface HistoryProfile {
  events: number;
  workflowTasks: number;
  activities: number;
  /** Local activities, recorded as markers. */
  markers: number;
}

/** Fetches a history and counts what matters for cost: every workflow task is a round trip. */
export async function profileHistory(handle: WorkflowHandle): Promise<HistoryProfile> {
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  // Each event carries exactly one attributes field named after its type.
  const count = (has: (e: (typeof events)[number]) => unknown) => events.filter((e) => has(e) != null).length;
  return {
    events: events.length,
    workflowTasks: count((e) => e.workflowTaskCompletedEventAttributes),
    activities: count((e) => e.activityTaskScheduledEventAttributes),
    markers: count((e) => e.markerRecordedEventAttributes),
  };
}
