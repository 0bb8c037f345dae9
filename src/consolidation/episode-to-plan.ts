/**
 * The pure half of plan-graph consolidation (docs/consolidation.md): which episodes qualify, and how an
 * episode's tool graph becomes a plan graph and one counted execution of it.
 */
import { validatePlanGraph, type PlanIssue } from '../domain/graph';
import { CONSOLIDATED_TAG, type EpisodicPayload, type PlanEdge, type PlanGraphPayload, type PlanNode } from '../domain/records';
import { taskInputs, taskStatement } from './task-inputs';
import { traceDataFlow } from './provenance';
import { runScopedTokens } from './run-tokens';
import { jobName } from './job-words';
import { stepReports, wordsOf } from './step-reports';

/** Fewest tool nodes an episode needs to become a plan: single calls and pairs are not worth one. */
export const MIN_TOOL_NODES = 3;
export const PLAN_CONFIDENCE = 0.7;
export const PLAN_TAGS = [CONSOLIDATED_TAG, 'auto-plangraph'] as const;
export const UNKNOWN_INTENT = 'unknown';

type EpisodeShape = Pick<EpisodicPayload, 'timeline' | 'tool_graph' | 'outcome' | 'environment'>;

/** Event kinds whose summary states the task in the agent's or its user's words. */
const TASK_EVENT = /user|goal|task|request|prompt|instruction/i;

/**
 * Words of event kinds that say who spoke or acted, or that a task was given or ended, not which
 * task: the turns of a chat or tool-call log (`user_message`, `tool_call`, `observation`) and
 * the markers around a task (`user_request`, `task`, `new_task`, `task_completed`). As a plan's
 * name they would call every plan of such an agent the same.
 */
const GENERIC_EVENT_WORDS = new Set(
  [
    // roles
    'user human assistant ai agent system model tool function',
    // turns of a conversation or a tool loop
    'message msg turn input output response reply answer final call use result event observation thought thinking reasoning action step',
    // a task given, begun or ended, without saying which
    'request prompt query question instruction instructions goal task ask command intent new start started begin end done finish finished complete completed success failure failed error',
  ].flatMap((words) => words.split(' ')),
);

/** Whether an event kind is only generic words (`user_request`, `Tool-Call`, `taskCompleted`), or none. */
function isGenericEvent(kind: string): boolean {
  return wordsOf(kind).every((word) => GENERIC_EVENT_WORDS.has(word));
}

/**
 * Words of an event kind that report how a task went or what came back (`task_completed`,
 * `request_failed`, `tool_result`): its summary ("done", "3 rows") is no statement of the task.
 */
const OUTCOME_WORDS = new Set('complete completed done finish finished end ended final answer result results success succeeded failure failed error response reply output outcome observation status'.split(' '));

/** Words that acknowledge rather than ask ("ok", "thanks"): a note made only of them and generic words states no task. */
const ACKNOWLEDGEMENTS = new Set('ok okay thanks thank yes no sure great cool'.split(' '));

/** Whether an event's summary states a task: it is not the report of an outcome, and it says more than "done". */
function statesTask(event: EpisodicPayload['timeline'][number]): boolean {
  const summary = event.summary?.trim();
  if (!summary || wordsOf(event.event_kind).some((word) => OUTCOME_WORDS.has(word))) return false;
  return wordsOf(summary).some((word) => !GENERIC_EVENT_WORDS.has(word) && !ACKNOWLEDGEMENTS.has(word));
}

/** The event kinds of the timeline that are not a role, a chat turn or a task marker, and whether each reports a step (step-reports.ts). */
function tellingKinds(episode: Pick<EpisodicPayload, 'timeline'>): Array<{ kind: string; report: boolean }> {
  const reports = stepReports(episode.timeline);
  return episode.timeline.flatMap((event, i) => (isGenericEvent(event.event_kind.trim()) ? [] : [{ kind: event.event_kind.trim(), report: reports.has(i) }]));
}

/**
 * The first `event_kind` of the timeline that names the task, if one: not a role, a chat turn or
 * a task marker, nor a step the agent reported once given its task (`pods_listed` names the first
 * step of many jobs, and reads as "list" to the action gate).
 */
export function eventIntent(episode: Pick<EpisodicPayload, 'timeline'>): string | undefined {
  return tellingKinds(episode).find((event) => !event.report)?.kind;
}

/**
 * The plan's name when its task is not at hand: the event kind naming the task, else the first
 * step reported (what plans of such episodes were named before they were named from their task),
 * else the episode's tools in order (`fetch_page_summarize_text`), else "unknown".
 */
export function inferIntent(episode: Pick<EpisodicPayload, 'timeline' | 'tool_graph'>): string {
  const tools = [...new Set(episode.tool_graph.map((t) => t.tool.trim()).filter(Boolean))];
  return eventIntent(episode) ?? tellingKinds(episode)[0]?.kind ?? (tools.length > 0 ? tools.join('_').slice(0, 200) : UNKNOWN_INTENT);
}

/**
 * The task as stated: the first summary of a user/goal event that states one (not the report of
 * how it went: `task_completed` "done"), else the summary of the event naming the task when it is
 * a sentence (the event the intent is taken from: `ticket_triage` "Triage ticket T-4411 …"), else
 * undefined.
 */
export function taskSummary(episode: Pick<EpisodicPayload, 'timeline'>): string | undefined {
  for (const event of episode.timeline) {
    if (TASK_EVENT.test(event.event_kind) && statesTask(event)) return event.summary!.trim().slice(0, 2000);
  }
  // A sentence, not a note such as "step 1".
  const named = eventIntent(episode);
  const stated = named === undefined ? '' : (episode.timeline.find((event) => event.event_kind.trim() === named)?.summary?.trim() ?? '');
  return stated.split(/\s+/).length >= MIN_TASK_WORDS ? stated.slice(0, 2000) : undefined;
}

/** Fewest words of a summary on the event naming the task that state the task. */
const MIN_TASK_WORDS = 3;

/** A sentence naming the ops in order, for plans whose episode never stated its task. */
export function opsSentence(ops: readonly string[]): string {
  const distinct = [...new Set(ops)];
  const list = distinct.length > 1 ? `${distinct.slice(0, -1).join(', ')} then ${distinct.at(-1)}` : (distinct[0] ?? '');
  return `Runs ${list}.`.slice(0, 2000);
}

function instantMs(value: string | number): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

/**
 * Wall time of an episode: the span of its timeline. Fewer than two events measure nothing, so
 * they yield undefined rather than a zero that would drag the plan's average latency down.
 */
export function timelineSpanMs(episode: Pick<EpisodicPayload, 'timeline'>): number | undefined {
  const times = episode.timeline.map((e) => instantMs(e.t)).filter(Number.isFinite);
  if (times.length < 2) return undefined;
  return Math.max(...times) - Math.min(...times);
}

/** One execution as plan_stats counts it: partial outcomes count as successes, like runs do. */
export interface ExecutionSample {
  successes: 0 | 1;
  failures: 0 | 1;
  latency_ms: number | undefined;
}

export function executionSample(episode: EpisodeShape): ExecutionSample {
  const failed = episode.outcome === 'failure';
  return { successes: failed ? 0 : 1, failures: failed ? 1 : 0, latency_ms: timelineSpanMs(episode) };
}

/** How an episode becomes a plan: with generalisation (the default) or as a literal replay. */
export interface ConversionOptions {
  /** Trace data edges and task inputs (see provenance.ts, task-inputs.ts); off replays literals. */
  generalise?: boolean;
}

/**
 * The plan an episode becomes: tool node → plan node (id, tool → op, args → params), each
 * `depends_on` entry → a control edge dep → node (a repeated entry once), metrics of one run,
 * the task summary as description and example. Generalised, args carrying an earlier result
 * become references over data edges, args the task states become inputs, and a request token the
 * agent made up becomes the run's own (`{{run.id}}`).
 */
export function planFromEpisode(episode: EpisodeShape, planId: string, now: string, options: ConversionOptions = {}): PlanGraphPayload {
  const generalise = options.generalise ?? true;
  const statement = generalise ? taskStatement(episode) : undefined;
  const flow = generalise ? traceDataFlow(episode.tool_graph, statement?.stated) : undefined;
  const nodes: PlanNode[] = episode.tool_graph.map((t) => ({ id: t.id, op: t.tool, params: flow?.params.get(t.id) ?? t.args, guards: {} }));
  const edges: PlanEdge[] =
    flow?.edges ??
    episode.tool_graph.flatMap((t) => [...new Set(t.depends_on)].map((dep): PlanEdge => ({ from: dep, to: t.id, kind: 'control' })));
  const sample = executionSample(episode);
  const task = taskSummary(episode);
  const plan: PlanGraphPayload = {
    kind: 'plan_graph',
    plan_id: planId,
    version: '1',
    intent: inferIntent(episode),
    description: task ?? opsSentence(nodes.map((n) => n.op)),
    ...(task ? { examples: [task] } : {}),
    constraints: { failure_policy: 'fail_fast' },
    inputs_schema: {},
    outputs_schema: {},
    nodes,
    edges,
    metrics: { execution_count: 1, failure_rate: sample.failures, avg_latency_ms: sample.latency_ms ?? 0, last_executed_at: now },
  };
  const learned = generalise ? runScopedTokens(taskInputs(plan, episode, statement)) : plan;
  // An agent that never names its task by an event kind gets a name from the task's own words.
  const named = task && !eventIntent(episode) ? jobName(task, learned) : undefined;
  return named ? { ...learned, intent: named } : learned;
}

/**
 * Problems that would make the converted plan unrunnable (dangling dependency, cycle, …). Ops are
 * not checked: an episode's tools need not be registered ops yet.
 */
export function convertedPlanIssues(plan: PlanGraphPayload): PlanIssue[] {
  return validatePlanGraph(plan);
}
