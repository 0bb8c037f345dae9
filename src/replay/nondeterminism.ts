/**
 * Turns the SDK's replay errors into something a person can act on: which history event the
 * code disagreed with, what that event was, and what the code did instead.
 */
import type { History } from './history-file';

type HistoryEvent = NonNullable<History['events']>[number];

export interface ReplayFailure {
  kind: 'nondeterminism' | 'replay_error';
  /** The history event the workflow code disagreed with. */
  eventId?: number;
  /** That event's type and identifying attributes, read from the history. */
  event?: string;
  /** What differed, in one line (Core's own words). */
  difference: string;
  /** The SDK's full message. */
  message: string;
}

/**
 * Classifies a replay error and extracts what differed. The event id comes from the message
 * when Core names one (`HistoryEvent(id: 5, …)`), else from `eventId` located by the caller.
 */
export function describeReplayFailure(error: Error, history?: History, eventId?: number): ReplayFailure {
  const kind = error.name === 'DeterminismViolationError' ? 'nondeterminism' : 'replay_error';
  const message = error.message;
  const id = findEventId(message) ?? eventId;
  const event = id !== undefined && history ? describeEvent(history, id) : undefined;
  return { kind, eventId: id, event, difference: coreDifference(message), message };
}

/** The first event id a Core message mentions (`HistoryEvent(id: 5, …)`, `event id 5`). */
export function findEventId(message: string): number | undefined {
  const match = /HistoryEvent\(\s*id:\s*(\d+)/.exec(message) ?? /\bevent[ _]id[:=]?\s*(\d+)/i.exec(message);
  return match ? Number(match[1]) : undefined;
}

/**
 * Core's sentence about what differed, without the SDK's preamble and the Rust debug wrapping:
 * `… Details: Workflow activation completion failed: Failure { failure: Some(Failure { message:
 * "[TMPRL1100] Nondeterminism error: X", … }` becomes `X`.
 */
export function coreDifference(message: string): string {
  const quoted = /message: "((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
  const detail = quoted ?? message.replace(/^[\s\S]*?Details:\s*/, '');
  return detail.replace(/^\[TMPRL\d+\]\s*/, '').replace(/^Nondeterminism error:\s*/i, '').split('\n')[0]!.trim();
}

/** `ActivityTaskScheduled activity "n002" type "echo"`-style summary of one history event. */
export function describeEvent(history: History, eventId: number): string | undefined {
  const event = history.events?.find((e) => Number(e.eventId) === eventId);
  if (!event) return undefined;
  const type = eventTypeName(event);
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled) return `${type} activity "${scheduled.activityId ?? ''}" type "${scheduled.activityType?.name ?? ''}"`;
  const marker = event.markerRecordedEventAttributes;
  if (marker) return `${type} "${marker.markerName ?? ''}"`;
  const timer = event.timerStartedEventAttributes;
  if (timer) return `${type} timer "${timer.timerId ?? ''}"`;
  return type;
}

/** `ActivityTaskScheduled` from the event's attributes field (`activityTaskScheduledEventAttributes`). */
function eventTypeName(event: HistoryEvent): string {
  // Proto messages name their set oneof in `attributes`; plain objects only have the field itself.
  const field =
    (event as { attributes?: string }).attributes ??
    Object.keys(event).find((k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k] != null);
  return field ? field.charAt(0).toUpperCase() + field.slice(1).replace(/EventAttributes$/, '') : 'unknown event';
}
