/**
 * Replays workflow histories against workflow code with the SDK's replay worker: the check that
 * a code change is still compatible with runs recorded before it.
 */
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type Logger, type WorkflowBundleOption } from '@temporalio/worker';
import { WORKFLOW_CODE } from '../package-files';
import { REPLAY_OUTCOME_SINKS } from '../runs/outcome-sink';
import { historyWorkflowId, type History } from './history-file';
import { describeReplayFailure, type ReplayFailure } from './nondeterminism';

/** The workflow code to replay against: a workflows module (bundled once) or a prebuilt bundle. */
export type WorkflowSource = { workflowsPath: string } | { workflowBundle: WorkflowBundleOption };

/** One history to replay; the workflow id defaults to the one in the start event. */
export interface ReplayTarget {
  history: History;
  workflowId?: string;
  runId?: string;
}

export type ReplayOutcome = { workflowId: string; runId: string; events: number } & ({ ok: true } | ({ ok: false } & ReplayFailure));

/** The current plangraph workflows. */
export const CURRENT_WORKFLOWS: WorkflowSource = WORKFLOW_CODE;

/** A history shorter than this has not reached its first workflow task: nothing to compare. */
const SHORTEST_REPLAYABLE = 3;

const silent: Logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * Installs a runtime that logs errors only. Core warns about every failed workflow task, which
 * during replay is the very failure being reported; call before anything else uses the SDK.
 */
export function installQuietReplayRuntime(): void {
  Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
}

/** Bundles a workflows module once, so several replay workers can share the code. */
export async function loadWorkflowBundle(source: WorkflowSource): Promise<WorkflowBundleOption> {
  if ('workflowBundle' in source) return source.workflowBundle;
  return bundleWorkflowCode({ workflowsPath: source.workflowsPath, logger: silent });
}

/**
 * Replays each history in turn on one replay worker and yields one outcome per history,
 * failures included. A nondeterminism error whose message names no event is pinned to an
 * event by replaying ever shorter prefixes of the history.
 */
export async function* replayHistories(
  targets: Iterable<ReplayTarget> | AsyncIterable<ReplayTarget>,
  source: WorkflowSource = CURRENT_WORKFLOWS,
): AsyncGenerator<ReplayOutcome> {
  const workflowBundle = await loadWorkflowBundle(source);
  // The SDK replays one history at a time, so the last target it took is the one a result is for.
  let current: ReplayTarget | undefined;
  async function* feed() {
    for await (const target of targets) {
      current = target;
      yield { history: target.history, workflowId: workflowIdOf(target) };
    }
  }
  for await (const result of Worker.runReplayHistories({ workflowBundle, replayName: 'plangraph-replay', sinks: REPLAY_OUTCOME_SINKS }, feed())) {
    const target = current!;
    const base = { workflowId: result.workflowId, runId: target.runId ?? result.runId, events: target.history.events?.length ?? 0 };
    if (!result.error) {
      yield { ...base, ok: true };
      continue;
    }
    const failure = describeReplayFailure(result.error, target.history);
    if (failure.kind === 'nondeterminism' && failure.eventId === undefined) {
      const eventId = await firstDivergentEvent(target, workflowBundle);
      yield { ...base, ok: false, ...describeReplayFailure(result.error, target.history, eventId) };
    } else yield { ...base, ok: false, ...failure };
  }
}

/** Replays a single history; resolves with its outcome (a replay failure is an outcome, not a throw). */
export async function replayWorkflowHistory(
  history: History,
  source: WorkflowSource = CURRENT_WORKFLOWS,
  target: Omit<ReplayTarget, 'history'> = {},
): Promise<ReplayOutcome> {
  for await (const outcome of replayHistories([{ ...target, history }], source)) return outcome;
  throw new Error('the replay worker returned no result');
}

function workflowIdOf(target: ReplayTarget): string {
  return target.workflowId ?? historyWorkflowId(target.history) ?? 'replay';
}

/**
 * The id of the first event the code cannot reproduce: the length of the shortest failing
 * prefix. A prefix replays cleanly up to the point where code and history part ways, so
 * failure is monotone in the prefix length and a binary search finds it.
 */
async function firstDivergentEvent(target: ReplayTarget, workflowBundle: WorkflowBundleOption): Promise<number | undefined> {
  const events = target.history.events ?? [];
  let lo = Math.min(SHORTEST_REPLAYABLE, events.length);
  let hi = events.length; // the whole history is known to fail
  const workflowId = workflowIdOf(target);
  async function* prefixes() {
    while (lo < hi) yield { workflowId, history: { events: events.slice(0, (lo + hi) >> 1) } };
  }
  for await (const result of Worker.runReplayHistories({ workflowBundle, replayName: 'plangraph-bisect', sinks: REPLAY_OUTCOME_SINKS }, prefixes())) {
    const mid = (lo + hi) >> 1;
    if (result.error) hi = mid;
    else lo = mid + 1;
  }
  const event = events[hi - 1];
  return event ? Number(event.eventId) : undefined;
}

/** `replay ok (N events)`, or the failure with its event, for people reading a terminal. */
export function formatReplayOutcome(outcome: ReplayOutcome): string {
  if (outcome.ok) return `replay ok (${outcome.events} events)`;
  const what = outcome.kind === 'nondeterminism' ? 'nondeterminism' : 'replay error';
  const where = outcome.eventId !== undefined ? ` at event ${outcome.eventId}${outcome.event ? ` (${outcome.event})` : ''}` : '';
  return `replay FAILED: ${what}${where}\n  ${outcome.difference}`;
}
