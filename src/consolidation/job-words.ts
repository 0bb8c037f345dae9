/**
 * The job a plan does, for agents whose events never name it (chat turns and tool calls:
 * `user_message`, `tool_call`). Through generic tools (`http_request`, `bash`) a refund and a
 * weather lookup can make the same three calls; they are two jobs, and one plan for both would
 * make every arg they disagree on an input (docs/consolidation.md#one-plan-per-job). What tells
 * them apart is what the calls say once the task's own values are left out: the same job makes
 * the same requests and commands, another job other ones.
 */
import { leadingAction } from '../domain/action-words';
import { contentWords, ENGLISH_STOP_WORDS } from '../domain/content-words';
import { fillerOnly } from '../domain/input-suggestions';
import { documentWords } from '../domain/plan-document';
import type { PlanGraphPayload } from '../domain/records';
import { canonicalNames } from '../domain/structure';
import { leaves, type Leaf } from './json-leaves';

/** What a plan does. */
export interface Job {
  /** Action classes its tasks lead with (`refund`, `read`); none when no verb is classed. */
  actions: ReadonlySet<string>;
  /** The words its tasks say: values and the like, left out of the calls' words when comparing. */
  stated: ReadonlySet<string>;
  /** The first word each task asks with ("capture", "cancel"): in a call's address it is what the call does, never a value. */
  leads: ReadonlySet<string>;
  /** The strings and numbers of each call's args with their paths, by the call's canonical name: the requests and commands it makes. */
  calls: ReadonlyMap<string, readonly Leaf[]>;
}

/**
 * Least mean share of the args two plans' calls hold alike for one job. Twins repeat their
 * requests and commands but for the values (an agent's free-text notes differ too); another job
 * calls other URLs and commands, however much boilerplate (`https`, the host) they share.
 */
export const SAME_CALLS = 0.6;

/** Most words a job name is made of, and fewest when the task has them. */
const NAME_WORDS = 3;
const MIN_NAME_WORDS = 2;

/** Words that ask, greet or muse rather than say what is asked ("please help me", "hi, could you", "I want to know whether"). */
const ASKING = new Set(
  'please kindly could would need needs want wants let lets help hi hello hey pls thank get make tell know wonder wondering whether like able possible really actually maybe okay ok sure going gonna wanna quick quickly'.split(' '),
);

/**
 * The words an input's value is written with (`Paris`, `acme/api` → acme, api). A value of
 * several words (`account of ana@example.com`) is a phrase of the task, not one value: its
 * words still say what the task is.
 */
function valueWords(plan: Pick<PlanGraphPayload, 'inputs_schema'>): Set<string> {
  const properties = (plan.inputs_schema as { properties?: Record<string, { examples?: unknown[]; default?: unknown }> }).properties ?? {};
  const values = Object.values(properties).flatMap((p) => [...(Array.isArray(p?.examples) ? p.examples : []), p?.default]);
  const single = (v: unknown) => (typeof v === 'string' && !/\s/.test(v.trim())) || typeof v === 'number';
  return new Set(values.flatMap((v) => (single(v) ? contentWords(String(v)) : [])));
}

/** A task's words that say which job it is: content words that are no value, digit or filler, the leading verb left out. */
function taskWords(task: string, values: ReadonlySet<string>, verb: string | undefined): string[] {
  const verbWords = new Set(verb?.split(' ') ?? []);
  return contentWords(task).filter(
    (w) => w.length > 1 && !/\d/.test(w) && !values.has(w) && !ASKING.has(w) && !fillerOnly(w) && !verbWords.has(w) && !isProperName(task, w),
  );
}

/** Whether a task writes a word capitalised inside a sentence: a name ("with Marcus", "in Berlin on Thursday", "EMEA"), a value of this task. */
function isProperName(task: string, word: string): boolean {
  for (const match of task.matchAll(new RegExp(`(?<!\\p{L})${word}(?!\\p{L})`, 'giu'))) {
    const before = task.slice(0, match.index).trimEnd();
    if (match[0] !== word && before !== '' && !/[.!?:]$/.test(before)) return true;
  }
  return false;
}

/** Words a request starts with before what it asks for ("please", "could you", "hey, can we"). */
const ASKING_START = new Set(['can', 'could', 'would', 'will', 'you', 'we', 'i', 'just', 'now', 'also', 'then']);

/**
 * The word a task starts with, asking aside ("please capture …" → capture): the verb of an
 * imperative. A question ("is billing healthy?") or a statement starting with a stop word has none.
 */
function leadWord(task: string): string | undefined {
  const words = documentWords(task).toLowerCase().split(' ').filter(Boolean);
  const first = words.find((w) => !ASKING.has(w) && !ASKING_START.has(w));
  return first && !ENGLISH_STOP_WORDS.has(first) && !/\d/.test(first) ? first : undefined;
}

/** The words of a call's args: string values at every depth, templates, digits and one-letter flags left out. */
function argWords(value: unknown, out: Set<string>): Set<string> {
  for (const leaf of leaves(value)) {
    for (const word of documentWords(String(leaf.value)).toLowerCase().split(' ')) if (word.length > 1 && !/\d/.test(word)) out.add(word);
  }
  return out;
}

/** The job of a plan: the actions its examples (the tasks it was learned from) lead with, their words, and its calls' args. */
export function jobOf(plan: Pick<PlanGraphPayload, 'examples' | 'nodes' | 'edges'>): Job {
  const actions = new Set<string>();
  const stated = new Set<string>();
  const leads = new Set<string>();
  for (const task of plan.examples ?? []) {
    const action = leadingAction(task);
    if (action && !action.negated) actions.add(action.action);
    for (const word of contentWords(task)) stated.add(word);
    // A code in capitals is a value even when it spells a stop word ("Set AT shipping", "IT", "IN").
    for (const code of task.match(/(?<![\p{L}\p{N}])\p{Lu}{2,}(?![\p{L}\p{N}])/gu) ?? []) stated.add(code.toLowerCase());
    const lead = leadWord(task);
    if (lead) leads.add(lead);
  }
  const names = canonicalNames(plan);
  const calls = new Map<string, Leaf[]>();
  for (const node of plan.nodes) {
    const name = names.get(node.id)!;
    calls.set(name, leaves(node.params, [], calls.get(name) ?? []));
  }
  return { actions, stated, leads, calls };
}

/**
 * A name for the job one task states, `snake_case` like an event kind: its leading verb and first
 * words (`refund_order`, `show_weather`); undefined when it says nothing but values. A word a call
 * also says is most likely a value the calls use (`Deploy ledger to staging`, `-n staging`): it is
 * passed over while the verb or other words can name the job, and without a verb, while two words
 * of the task do.
 */
export function jobName(task: string, plan: Pick<PlanGraphPayload, 'inputs_schema' | 'nodes'>): string | undefined {
  const action = leadingAction(task);
  // A phrasal verb keeps its particle ("roll back"), not its asker ("show me").
  const verb = action && !action.negated ? action.word.split(' ').filter((w) => !ENGLISH_STOP_WORDS.has(w)) : [];
  const words = taskWords(task, valueWords(plan), action?.word);
  const called = argWords(plan.nodes.map((n) => n.params), new Set());
  const uncalled = words.filter((w) => !called.has(w));
  // Without a verb, one word says little ("many", "top"): the first words the calls hold fill it up
  // to two, when the task writes them in lowercase ("rows", "customers"; "Paris" is a value).
  const lowercase = (w: string) => new RegExp(`(?<!\\p{L})${w}(?!\\p{L})`, 'u').test(task);
  const filler = new Set(verb.length > 0 ? [] : words.filter((w) => called.has(w) && lowercase(w)).slice(0, Math.max(0, MIN_NAME_WORDS - uncalled.length)));
  const picked = verb.length === 0 && uncalled.length === 0 ? words : words.filter((w) => !called.has(w) || filler.has(w));
  const name = [...verb, ...picked].slice(0, NAME_WORDS);
  return name.length > 0 ? name.join('_') : undefined;
}

const TEMPLATE = /\{\{[^{}]*\}\}/g;

/** A leaf as the job sees it: templates, numbers and the words either task states stand for any value. */
function pattern(leaf: Leaf, stated: (word: string) => boolean): string {
  const value = String(leaf.value).replace(TEMPLATE, '*').replace(/[\p{L}\p{N}]+/gu, (word) => (/\d/.test(word) || stated(word.toLowerCase()) ? '*' : word.toLowerCase()));
  return `${leaf.path.join('.')}=${value}`;
}

/**
 * The share of two calls' leaves that are alike (as multisets); two calls without args are alike.
 * Calls to a tool named for what it does (`crm_find_contact`, `task_create`: no address among
 * their args) are alike in the args they pass, whatever the values: the agent resolves some
 * itself ("Monday" → `2026-11-09`, "Ali" → `Ali Khan`), and its notes differ every time.
 */
function alike(a: readonly Leaf[], b: readonly Leaf[], stated: (word: string) => boolean): number {
  if (a.length + b.length === 0) return 1;
  const named = !a.some(isAddress) && !b.some(isAddress);
  const keyOf = (leaf: Leaf) => (named ? leaf.path.join('.') : pattern(leaf, stated));
  const left = new Map<string, number>();
  for (const key of a.map(keyOf)) left.set(key, (left.get(key) ?? 0) + 1);
  let shared = 0;
  for (const leaf of b) {
    const key = keyOf(leaf);
    const count = left.get(key) ?? 0;
    if (count > 0) {
      shared++;
      left.set(key, count - 1);
    }
  }
  return shared / (a.length + b.length - shared);
}

/** Arg keys that say where a call goes or what it runs: two calls with another one of these are other calls. */
const ADDRESS_KEYS = new Set(['url', 'uri', 'href', 'endpoint', 'path', 'method', 'cmd', 'command', 'script', 'sql']);

/** Whether a leaf says where its call goes or what it runs: a URL, or the value of an address key. */
const isAddress = (leaf: Leaf) => ADDRESS_KEYS.has(String(leaf.path.at(-1)).toLowerCase()) || /^[a-z][\w+.-]*:\/\//i.test(String(leaf.value));

/**
 * Whether two plans of the same shape do the same job: each call goes to the same address and
 * runs the same command but for the values (`/v1/refunds` is not `/v1/charges/…/capture`, even
 * when the calls around it are the same), their calls hold the same args but for the values (a
 * mean share alike of at least SAME_CALLS), and their tasks do not lead with different classed
 * actions ("restart the workers" and "stop the workers" through one API whose `action` field the
 * task states).
 */
export function sameJob(a: Job, b: Job): boolean {
  if (a.actions.size > 0 && b.actions.size > 0 && ![...a.actions].some((action) => b.actions.has(action))) return false;
  const stated = statedByEither(a, b);
  // "cancel the pending charge" beside `…/charges/{id}/cancel`: the task's verb is the endpoint, not a value.
  const value = (word: string) => stated(word) && !a.leads.has(word) && !b.leads.has(word);
  const addresses = (calls: readonly Leaf[]) => calls.filter(isAddress).map((leaf) => pattern(leaf, value)).sort().join('\n');
  for (const name of new Set([...a.calls.keys(), ...b.calls.keys()])) {
    if (addresses(a.calls.get(name) ?? []) !== addresses(b.calls.get(name) ?? [])) return false;
  }
  return callOverlap(a, b) >= SAME_CALLS;
}

/** Whether either plan's tasks say a word: such words are values, standing for any value in the calls. */
const statedByEither = (a: Job, b: Job) => (word: string) => a.stated.has(word) || b.stated.has(word);

/** The mean share of alike args of two plans' calls, call by canonical name: 1 when they differ only in their tasks' values. */
export function callOverlap(a: Job, b: Job): number {
  const stated = statedByEither(a, b);
  const names = [...new Set([...a.calls.keys(), ...b.calls.keys()])];
  return names.reduce((sum, name) => sum + alike(a.calls.get(name) ?? [], b.calls.get(name) ?? [], stated), 0) / Math.max(names.length, 1);
}

/** The job of a plan a twin joined: its own calls, and the actions and words either states or asks with. */
export function joinJobs(plan: Job, twin: Job): Job {
  return {
    actions: new Set([...plan.actions, ...twin.actions]),
    stated: new Set([...plan.stated, ...twin.stated]),
    leads: new Set([...plan.leads, ...twin.leads]),
    calls: plan.calls,
  };
}
