import { describe, expect, it } from 'vitest';
import { parseHistoryJson } from '../../src/replay/history-file';
import { coreDifference, describeEvent, describeReplayFailure, findEventId } from '../../src/replay/nondeterminism';

// The message the SDK builds around Core's nondeterminism failure (copied from a real replay).
const SDK_MESSAGE =
  'Replay failed with a nondeterminism error. This means that the workflow code as written is not compatible with the history that was fed in. ' +
  'Details: Workflow activation completion failed: Failure { failure: Some(Failure { message: "[TMPRL1100] Nondeterminism error: ' +
  "Activity type of scheduled event 'greet' does not match activity type of activity command 'audit'\", source: \"\", stack_trace: \"\" }) }";

const history = parseHistoryJson(
  {
    events: [
      { eventId: '1', eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED', workflowExecutionStartedEventAttributes: { workflowType: { name: 'w' }, workflowId: 'wf-1' } },
      { eventId: '2', eventType: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED', activityTaskScheduledEventAttributes: { activityId: 'n002', activityType: { name: 'echo' } } },
      { eventId: '3', eventType: 'EVENT_TYPE_MARKER_RECORDED', markerRecordedEventAttributes: { markerName: 'core_patch' } },
    ],
  },
  'inline history',
);

function violation(message: string): Error {
  const error = new Error(message);
  error.name = 'DeterminismViolationError';
  return error;
}

describe('reading replay failures', () => {
  it("strips the SDK's preamble and Rust wrapping down to Core's sentence", () => {
    expect(coreDifference(SDK_MESSAGE)).toBe("Activity type of scheduled event 'greet' does not match activity type of activity command 'audit'");
  });

  it('finds an event id when Core names one, and nothing when it does not', () => {
    expect(findEventId('No command scheduled for event HistoryEvent(id: 8, ActivityTaskScheduled)')).toBe(8);
    expect(findEventId(SDK_MESSAGE)).toBeUndefined();
  });

  it('describes the event from the history: type and identifying attributes', () => {
    expect(describeEvent(history, 2)).toBe('ActivityTaskScheduled activity "n002" type "echo"');
    expect(describeEvent(history, 3)).toBe('MarkerRecorded "core_patch"');
    expect(describeEvent(history, 1)).toBe('WorkflowExecutionStarted');
    expect(describeEvent(history, 99)).toBeUndefined();
  });

  it('classifies a determinism violation and pins it to the located event', () => {
    expect(describeReplayFailure(violation(SDK_MESSAGE), history, 2)).toMatchObject({
      kind: 'nondeterminism',
      eventId: 2,
      event: 'ActivityTaskScheduled activity "n002" type "echo"',
    });
    expect(describeReplayFailure(new Error('Replay failed due workflow task failure. Details: no such workflow type'))).toMatchObject({
      kind: 'replay_error',
      eventId: undefined,
      difference: 'no such workflow type',
    });
  });
});

describe('history files', () => {
  it('refuses JSON that is not a history, naming the source', () => {
    expect(() => parseHistoryJson('{"nope": 1}', 'h.json')).toThrow(/h\.json is not a workflow history/);
    expect(() => parseHistoryJson('not json', 'h.json')).toThrow(/h\.json is not JSON/);
  });
});
