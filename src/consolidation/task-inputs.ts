/**
 * Inputs from the task: literals of one episode's tool calls that its task states (in a timeline
 * summary or its environment) become run inputs, whole or interpolated in a longer arg.
 */
import { leadingAction } from '../domain/action-words';
import { contentWords, ENGLISH_STOP_WORDS, sharesStem } from '../domain/content-words';
import type { EpisodicPayload, PlanGraphPayload } from '../domain/records';
import { inputRef, InputSet, isGenericKey, keyHint, middleHint } from './input-schema';
import { isPlainObject, isTemplate, isTraceable, leaves, withLeaf, type JsonPath } from './json-leaves';
import { stepReports, wordsOf } from './step-reports';
import { firstAlone, isInputToken, isNameWord, queryValueInterpolator, statedIn, tokenInterpolator, valueTokens, wordFor } from './stated-tokens';

type Params = Record<string, unknown>;
type TaskShape = Pick<EpisodicPayload, 'timeline' | 'environment' | 'tool_graph'>;

/** What an episode's task says: the summaries of the user's side, and whether it states a value. */
export interface TaskStatement {
  summaries: string;
  /** Whether the task states a value (in a summary, or as a value of `environment`), the name of a result field and the action it asks for aside. */
  stated: (value: string | number) => boolean;
}

/** What an episode's task says; undefined when nothing states it. */
export function taskStatement(episode: TaskShape): TaskStatement | undefined {
  const reports = stepReports(episode.timeline);
  const summaries = episode.timeline
    .filter((e, i) => statesTheTask(e.event_kind) && !reports.has(i))
    .map((e) => e.summary ?? '')
    .filter(Boolean)
    .join('\n');
  const environment = new Set(leaves(episode.environment ?? {}).map((l) => `${typeof l.value}:${l.value}`));
  if (!summaries && environment.size === 0) return undefined;
  const inText = statedIn(summaries);
  const fields = fieldNames(episode.tool_graph.map((call) => call.result));
  // The action a task asks for is what the plan does, not a value its callers vary: "restart the
  // billing workers" with `action: "restart"` keeps the arg (action-words.ts).
  const actions = new Set(episode.timeline.flatMap((event) => leadingAction(event.summary ?? '')?.word ?? []));
  const stated = (value: string | number) =>
    !fields.has(value) && !(typeof value === 'string' && actions.has(value.toLowerCase())) && (environment.has(`${typeof value}:${value}`) || inText(value));
  return { summaries, stated };
}

/**
 * Turns every literal arg whose value the task itself states (inside a timeline summary, or as
 * a value of `environment`) into a run input named after the arg key, and then every such value,
 * and every value the summary states, inside a longer string arg into an input interpolated in
 * place (stated-tokens.ts).
 * The same value in several places becomes one input.
 */
export function taskInputs(plan: PlanGraphPayload, episode: TaskShape, statement = taskStatement(episode)): PlanGraphPayload {
  if (!statement) return plan;
  const { summaries, stated } = statement;

  const inputs = InputSet.from(plan.inputs_schema);
  const byValue = new Map<string, string>();
  const inputFor = (value: string | number, hint: string) => {
    const key = `${typeof value}:${value}`;
    const name = byValue.get(key) ?? inputs.add(hint, [value]);
    byValue.set(key, name);
    return inputRef(name);
  };
  const eachLeaf = (nodes: PlanGraphPayload['nodes'], rewrite: (value: string | number, path: JsonPath) => unknown) =>
    nodes.map((node) => {
      let params: Params = node.params;
      for (const leaf of leaves(node.params)) {
        const written = rewrite(leaf.value, leaf.path);
        if (written !== leaf.value) params = withLeaf(params, leaf.path, written) as Params;
      }
      return params === node.params ? node : { ...node, params };
    });
  // A word an arg holds is a value there ("ship payments v2.3.0" to the repo `acme/payments`), not the name of another.
  const argTexts = plan.nodes.flatMap((node) => leaves(node.params).flatMap((leaf) => (typeof leaf.value === 'string' && !isTemplate(leaf.value) ? [leaf.value] : [])));
  const isArgValue = (word: string) => argTexts.some((text) => firstAlone(text, word) >= 0);
  // Whole values first, so a value also stated inside a longer arg takes the whole arg's name.
  const wholeInput = (value: string | number) => (isTraceable(value) || (typeof value === 'string' && isInputToken(value))) && !isTemplate(value) && stated(value);
  const wholeName = (value: string | number, path: JsonPath) => {
    const key = keyHint(path);
    // An arg key that says only that a value is there is no name for it when the task has one ("refund order 8812" → `order`).
    return (isGenericKey(key) && wordFor(summaries, String(value), isArgValue)) || key;
  };
  const whole = eachLeaf(plan.nodes, (value, path) => (wholeInput(value) ? inputFor(value, wholeName(value, path)) : value));
  // Inside longer args: the value-shaped tokens the task states, and every value-shaped value or
  // capitalised name that became a whole input (ticket `4411` is in `…/refunds/4411/` too, city
  // `Paris` in "Paris: 12C"). A token of a whole input is that input, whatever its type; a new one
  // is named by the task's word for it ("ticket T-4411"). A lowercase word of a whole input, or
  // one the task states, is taken only as a URL's query value (`?branch=main`).
  const wholeValues = new Map<string, string>();
  const queryWords = new Map<string, string>();
  for (const [key, name] of byValue) {
    const value = key.slice(key.indexOf(':') + 1);
    if (isInputToken(value) || (key.startsWith('string:') && isNameWord(value))) wholeValues.set(value, name);
    else if (key.startsWith('string:') && /^\p{L}{3,}$/u.test(value)) queryWords.set(value, inputRef(name));
  }
  // A plain word the task states that a URL's query gives as a value (`?branch=main` for "… on
  // branch main") is an input too, named by its key.
  for (const node of whole) {
    for (const leaf of leaves(node.params)) {
      if (typeof leaf.value !== 'string' || !leaf.value.includes('=')) continue;
      for (const [, param, word] of leaf.value.matchAll(QUERY_WORD)) {
        if (!queryWords.has(word!) && !ENGLISH_STOP_WORDS.has(word!.toLowerCase()) && stated(word!)) queryWords.set(word!, inputFor(word!, param!));
      }
    }
  }
  const interpolate = tokenInterpolator(new Set([...valueTokens(summaries), ...wholeValues.keys()]));
  const inQuery = queryValueInterpolator(queryWords);
  // Where it stands names a value better than the task's words when that is a collection or a key (`/repos/acme/api` → repo, `?city=` → city).
  const nameFor = (text: string, token: string, path: JsonPath) => {
    const where = partHint(text, token, path);
    return where !== keyHint(path) && !isGenericKey(where) ? where : (wordFor(summaries, token, isArgValue) ?? where);
  };
  const inPath = pathNumbers(summaries);
  const nodes = eachLeaf(whole, (value, path) =>
    typeof value === 'string'
      ? inPath(inQuery(interpolate(value, (token) => (wholeValues.has(token) ? inputRef(wholeValues.get(token)!) : inputFor(token, nameFor(value, token, path))))), (n, text) =>
          inputFor(n, nameFor(text, n, path)),
        )
      : value,
  );
  // A text arg worded like the task ("Login returns 500 when password contains a quote" for "open
  // an issue: login returns 500 when the password has a quote") is the task's own content, which
  // the next task words anew: an input, never a literal the next run would send again.
  const task = plan.examples?.[0];
  const worded = task ? eachLeaf(nodes, (value, path) => (typeof value === 'string' && wordedLike(value, task) ? inputFor(value, keyHint(path)) : value)) : nodes;
  return byValue.size === 0 ? plan : { ...plan, nodes: worded, inputs_schema: inputs.toSchema() };
}

/** Words of event kinds the user's side logs (`user_message`, `goal`, `task_request`). */
const USER_SIDE = new Set('user human customer client goal task request prompt instruction instructions ask question'.split(' '));
/** Words of event kinds of the agent's own turns and its tools' (`tool_call`, `tool_result`, `assistant_message`, `observation`). */
const AGENT_SIDE = new Set('tool tools assistant agent ai model system function call calls observation result results response output thought thinking reasoning answer'.split(' '));

/**
 * Whether an event's summary may state the task's values: not one of the agent's own turns or its
 * tools' (a `tool_call` summary "http_request POST https://…/refunds" is what the agent did, and its
 * URL is no value a caller sends), unless the user's side logged it. Steps the agent reported
 * ("Posted to #deal-desk") are left out by their place in the timeline (step-reports.ts).
 */
function statesTheTask(kind: string): boolean {
  const words = wordsOf(kind);
  return words.some((w) => USER_SIDE.has(w)) || !words.some((w) => AGENT_SIDE.has(w));
}

/** Fewest words of a text arg the task says beyond the words its job is asked with, and the least share of its words they are. */
const MIN_WORDED = 2;
const WORDED_SHARE = 2 / 3;
/** The task's first content words, which ask for the job ("open an issue in acme/api", "send the weekly report"). */
const JOB_WORDS = 3;

/**
 * Whether a text arg is prose worded like the task: no template, no command line, URL or markup,
 * and beyond the words the task asks for its job with (a message "Weekly report for billing is
 * ready" repeats those), at least MIN_WORDED words the task says too (or words of their stem),
 * WORDED_SHARE of its words: the part of the task only this task says.
 */
function wordedLike(text: string, task: string): boolean {
  if (!/\s/.test(text.trim()) || isTemplate(text) || /:\/\/|[{}<>|`$=\\]|(^|\s)--?\w/.test(text)) return false;
  const said = contentWords(task);
  const job = said.slice(0, JOB_WORDS);
  const words = contentWords(text).filter((w) => w.length > 1 && !job.some((t) => sharesStem(t, w)));
  const shared = words.filter((w) => said.some((t) => sharesStem(t, w))).length;
  return shared >= MIN_WORDED && shared >= WORDED_SHARE * words.length;
}

/**
 * Numbers of two or three digits the task states ("issue 57", `acme/ledger#102`) where a URL's
 * path has them as a whole segment (`…/issues/57/comments`), and those it writes as a reference
 * (`#91`) where an arg does too ("Fixed by #91"): the things the task is about, which a short
 * number elsewhere (a count, a port) is not. Longer ones are value tokens already.
 */
function pathNumbers(summaries: string): (text: string, replace: (n: string, text: string) => string) => string {
  const stated = statedIn(summaries);
  const numbers = new Set([...summaries.matchAll(/\d{2,3}/g)].map((m) => m[0]).filter((n) => stated(Number(n)) && String(Number(n)) === n));
  const hashed = new Set([...summaries.matchAll(/#(\d{2,3})(?!\d)/g)].map((m) => m[1]!));
  if (numbers.size === 0) return (text) => text;
  return (text, replace) => {
    const inUrl = text.includes('://') ? text.replace(/(?<=\/)(\d{2,3})(?=[/?#]|$)/g, (n, _group, at: number) => (numbers.has(n) && isInPath(text, at) ? replace(n, text) : n)) : text;
    return inUrl.replace(/(?<=#)(\d{2,3})(?!\d)/g, (n) => (hashed.has(n) && !inUrl.includes('://') ? replace(n, text) : n));
  };
}

/** Whether `at` lies in a URL's path: after its host, before any query. */
const isInPath = (text: string, at: number) => {
  const host = text.indexOf('://');
  const query = text.indexOf('?', host);
  return host >= 0 && at > text.indexOf('/', host + 3) && (query < 0 || at < query);
};

/** A URL query's `key=value` whose value is a plain word: `?branch=main&…`. */
const QUERY_WORD = /[?&]([A-Za-z_][\w-]*)=(\p{L}{3,})(?=[&#\s]|$)/gu;

/** What a token inside a longer arg is named after when the task has no word for it: where it stands (middleHint). */
function partHint(text: string, token: string, path: JsonPath): string {
  const at = text.indexOf(token);
  return middleHint(text.slice(0, at), text.slice(at + token.length), keyHint(path)).hint;
}

/**
 * Identifier keys and key paths of the episode's tool results (`name`, `customer.email`): an arg
 * naming one selects a field ("pick the name and email"), whatever the task says. Keys shaped like
 * values (`shipping-api`, `T-4411`) are not counted: results are often keyed by what the task names.
 */
function fieldNames(results: readonly unknown[]): Set<unknown> {
  const names = new Set<unknown>();
  const visit = (value: unknown, path: string[]) => {
    if (Array.isArray(value)) value.forEach((item) => visit(item, path));
    else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(key)) continue;
        names.add(key).add([...path, key].join('.'));
        visit(item, [...path, key]);
      }
    }
  };
  for (const result of results) visit(result, []);
  return names;
}
