/** What a workflow's history says about how it ran: events, workflow tasks, activity timing. */
import type { WorkflowHandle } from '@temporalio/client';

export interface HistoryProfile {
  events: number;
  workflowTasks: number;
  activities: number;
  completedActivities: number;
  /** Local activities, recorded as markers. */
  markers: number;
  /**
   * Milliseconds from the workflow's start to the first scheduling, the first and last start and
   * completion of the activities of type `timelineOf` (all when omitted), and to the workflow's close.
   */
  timeline: { firstScheduled: number; firstStart: number; lastStart: number; firstCompletion: number; lastCompletion: number; close: number };
}

/** Fetches a history and counts what matters for cost: every workflow task is a round trip. */
export async function profileHistory(handle: WorkflowHandle, timelineOf?: string): Promise<HistoryProfile> {
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  type Event = (typeof events)[number];
  // Each event carries exactly one attributes field named after its type.
  const having = (has: (e: Event) => unknown) => events.filter((e) => has(e) != null);
  const at = (e: Event | undefined) => (e?.eventTime ? Number(e.eventTime.seconds) * 1000 + Math.round((e.eventTime.nanos ?? 0) / 1e6) : Number.NaN);
  const t0 = at(events[0]);
  const scheduled = having((e) => e.activityTaskScheduledEventAttributes);
  const typeOf = new Map(scheduled.map((e) => [String(e.eventId), e.activityTaskScheduledEventAttributes!.activityType?.name]));
  const counted = (id: unknown) => timelineOf === undefined || typeOf.get(String(id)) === timelineOf;
  const starts = having((e) => e.activityTaskStartedEventAttributes).filter((e) => counted(e.activityTaskStartedEventAttributes!.scheduledEventId)).map(at);
  const completed = having((e) => e.activityTaskCompletedEventAttributes);
  const completions = completed.filter((e) => counted(e.activityTaskCompletedEventAttributes!.scheduledEventId)).map(at);
  return {
    events: events.length,
    workflowTasks: having((e) => e.workflowTaskCompletedEventAttributes).length,
    activities: scheduled.length,
    completedActivities: completed.length,
    markers: having((e) => e.markerRecordedEventAttributes).length,
    timeline: {
      firstScheduled: Math.min(...scheduled.filter((e) => counted(e.eventId)).map(at)) - t0,
      firstStart: Math.min(...starts) - t0,
      lastStart: Math.max(...starts) - t0,
      firstCompletion: Math.min(...completions) - t0,
      lastCompletion: Math.max(...completions) - t0,
      close: at(events.at(-1)) - t0,
    },
  };
}
