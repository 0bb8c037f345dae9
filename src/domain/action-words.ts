/**
 * The action a task asks for, as a class of operational verbs, so the selector never auto-runs a
 * plan that does something else to the same object ("stop the billing workers" against a plan
 * that restarts them). Word vectors cannot tell these apart: verbs of opposite or different
 * actions share contexts (stop/start/restart, purge/warm), so plans and tasks that differ only in
 * the verb match almost as well as a repeat of the plan's own words.
 *
 * Only a task's leading verb counts (tasks are imperatives: "restart the billing workers"), and
 * only verbs whose operational sense is clear are classed: "load", "run", "get", "reset" or
 * "release" name too many actions, and a task or plan without a classed verb is never held back.
 */
import { documentWords } from './plan-document';

/** Verb classes: words (and two-word phrasal verbs) that ask for the same action. */
const ACTION_CLASSES: Record<string, readonly string[]> = {
  restart: ['restart', 'reboot', 'bounce', 'recycle', 'relaunch', 'respawn'],
  start: [
    'start', 'launch', 'boot', 'resume', 'unpause', 'create', 'provision', 'spin up', 'set up', 'setup', 'install', 'open', 'enable', 'activate', 'book', 'reserve',
    'turn on', 'unfreeze', 'onboard',
  ],
  stop: [
    'stop', 'halt', 'kill', 'terminate', 'shut down', 'shutdown', 'take down', 'spin down', 'drain', 'cancel', 'disable', 'deactivate',
    'turn off',
  ],
  pause: ['pause', 'suspend', 'freeze', 'silence', 'mute'],
  deploy: ['deploy', 'redeploy', 'ship', 'roll out', 'rollout', 'push', 'promote'],
  rollback: ['rollback', 'roll back', 'go back', 'revert', 'undeploy', 'undo', 'downgrade'],
  remove: [
    'delete', 'remove', 'drop', 'destroy', 'wipe', 'erase', 'purge', 'flush', 'clear', 'clean', 'clean up', 'evict', 'invalidate',
    'revoke', 'close', 'tear down', 'teardown', 'uninstall', 'decommission', 'deprovision', 'prune', 'truncate', 'offboard', 'deduplicate', 'dedupe',
  ],
  warm: ['warm', 'prewarm', 'preload', 'prime'],
  read: [
    'list', 'show', 'fetch', 'read', 'view', 'inspect', 'count', 'monitor', 'watch', 'describe', 'look up', 'lookup', 'search', 'find',
    'check', 'query', 'display', 'print', 'export', 'download', 'pull', 'tell me', 'show me', 'give me',
  ],
  import: ['import', 'ingest', 'upload'],
  scale: ['scale', 'resize', 'autoscale', 'increase', 'decrease', 'grow', 'shrink'],
  rotate: ['rotate', 'renew', 'regenerate', 'reissue', 'replace', 'swap'],
  backup: ['backup', 'back up', 'snapshot'],
  restore: ['restore', 'recover', 'bring back'],
  refund: ['refund', 'reimburse'],
  merge: ['merge', 'squash', 'rebase'],
  send: ['send', 'post', 'notify', 'email', 'mail', 'message', 'announce', 'broadcast', 'tell', 'dm', 'ping'],
  approve: ['approve', 'accept'],
  acknowledge: ['acknowledge', 'ack'],
  reject: ['reject', 'deny', 'decline'],
  lock: ['lock'],
  unlock: ['unlock'],
  upgrade: ['upgrade'],
};

const CLASS_OF: ReadonlyMap<string, string> = new Map(Object.entries(ACTION_CLASSES).flatMap(([name, words]) => words.map((w) => [w, name] as const)));

/** Words an agent puts before the verb of its task: politeness, modals, the asker ("please can you", "we need to"). */
const LEAD_IN = new Set(
  'please kindly can could would will you i we need needs want wants to let lets us me go ahead and just now quickly should must help do then also a an the'.split(' '),
);

/** The verb's forms an agent may write: as given, and without an -s, -es, -ed or -ing ending. */
function baseForms(word: string): string[] {
  const forms = [word];
  for (const [suffix, ...replacements] of [['ing', '', 'e'], ['ed', '', 'e'], ['es', ''], ['s', '']] as const) {
    if (!word.endsWith(suffix) || word.length <= suffix.length + 2) continue;
    const stem = word.slice(0, -suffix.length);
    for (const r of replacements) forms.push(stem + r);
    // stopped, stopping → stop
    if (stem.length > 2 && stem.at(-1) === stem.at(-2)) forms.push(stem.slice(0, -1));
  }
  return forms;
}

/** A classed verb: its words as written (base form) and its class; `negated` when the task forbids it. */
export interface ActionWord {
  word: string;
  action: string;
  negated?: boolean;
}

/** Words that turn the verb after them into what must not happen ("don't restart", "do not restart"). */
const NEGATIONS = new Set(['not', 'don', 'dont', 'never', 'no']);

function classed(phrase: string): ActionWord | undefined {
  const [first, ...rest] = phrase.split(' ');
  for (const form of baseForms(first!)) {
    const word = [form, ...rest].join(' ');
    const action = CLASS_OF.get(word);
    if (action) return { word, action };
  }
  return undefined;
}

/** Particles of phrasal verbs, which may stand after the object: "shut the workers down". */
const PARTICLES = new Set(['up', 'down', 'out', 'back', 'off', 'on']);
/** How far after its verb a particle is looked for. */
const PARTICLE_REACH = 6;

/** The phrasal verb a word makes with a particle after its object ("shut the workers down"), if one. */
function splitPhrasal(words: readonly string[], i: number): ActionWord | undefined {
  for (let j = i + 2; j < Math.min(words.length, i + 2 + PARTICLE_REACH); j++) {
    if (PARTICLES.has(words[j]!)) return classed(`${words[i]} ${words[j]}`);
  }
  return undefined;
}

/** Words joining a second verb to the first: "find and merge", "check then restart". */
const COORDINATION = new Set(['and', 'then', 'or']);

/**
 * The leading verb of a task or plan name, when it is a classed one; undefined otherwise, and
 * when another verb is joined to it ("find and merge duplicates" does more than find).
 */
export function leadingAction(text: string): ActionWord | undefined {
  const words = documentWords(text).toLowerCase().split(' ').filter(Boolean);
  let negated = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const phrasal = words[i + 1] ? classed(`${word} ${words[i + 1]}`) : undefined;
    const split = phrasal || classed(word) ? undefined : splitPhrasal(words, i);
    // "don't" splits into "don" and "t".
    if (NEGATIONS.has(word) || (word === 't' && words[i - 1] === 'don')) negated = true;
    if (!phrasal && (LEAD_IN.has(word) || NEGATIONS.has(word) || word === 't')) continue;
    // A forbidden action is never one to run, whatever its verb: "do not drain the workers".
    if (negated) return { word: `not ${phrasal?.word ?? split?.word ?? word}`, action: 'negated', negated };
    const next = words[i + (phrasal ? 2 : 1)];
    return next !== undefined && COORDINATION.has(next) ? undefined : (phrasal ?? classed(word) ?? split);
  }
  return undefined;
}

/** The task's verb and the actions the plan is known to do, when the two disagree. */
export interface ActionConflict {
  /** The task's leading verb, or the verb of a further request (`also`). */
  task: string;
  /** The classed verbs the plan's name, examples and learned aliases lead with. */
  plan: string[];
  /** The verb asks for something after the task's first request ("… and email it"), which nothing says the plan does. */
  also?: boolean;
}

/**
 * Whether the task asks for another action than the plan does: its leading verb is of a class
 * none of the plan's names (intent, examples, learned aliases) leads with. A plan that has been
 * run for this very verb (an alias or example leading with it) never conflicts.
 */
export function actionConflict(task: string, planNames: readonly string[]): ActionConflict | undefined {
  const asked = leadingAction(task);
  if (!asked) return undefined;
  const done = planNames.map(leadingAction).filter((a): a is ActionWord => a !== undefined && !a.negated);
  if (asked.negated) return { task: asked.word, plan: [...new Set(done.map((a) => a.word))] };
  if (done.some((a) => a.action === asked.action)) return undefined;
  if (done.length === 0) {
    // Tasks that lead with no verb ("I left my laptop on the train, lock it") may lead a later clause
    // with one: another class than every such verb two of them say is another action ("unlock my
    // laptop"). One task alone may name a step ("…, open a jira and link it" for an escalation).
    const said = repeated(planNames.map((name) => name.split(CLAUSE).flatMap((clause) => leadingAction(clause) ?? []).filter((a) => !a.negated)));
    if (said.length > 0 && !said.some((a) => a.action === asked.action)) return { task: asked.word, plan: [...new Set(said.map((a) => a.word))] };
    // A plan named by verbs of no class ("build the sales report", "summarise the PR") is not known
    // to do anything in particular: only an action that cannot be taken back needs one it is known to do.
    return IRREVERSIBLE.has(asked.action) && planNames.length > 0 && said.length === 0 ? { task: asked.word, plan: [] } : undefined;
  }
  return { task: asked.word, plan: [...new Set(done.map((a) => a.word))] };
}

/** The actions at least two of the lists hold (each list counted once per action class). */
function repeated(lists: ReadonlyArray<readonly ActionWord[]>): ActionWord[] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const action of new Set(list.map((a) => a.action))) counts.set(action, (counts.get(action) ?? 0) + 1);
  return lists.flat().filter((a) => counts.get(a.action)! >= 2);
}

/** Where a clause of a task starts: after punctuation, "and" or "then". */
const CLAUSE = /[,.;:!?]\s+|\s+(?:and|then)\s+/i;

/** Actions that cannot be taken back: auto-run only on a plan known to do them. */
const IRREVERSIBLE: ReadonlySet<string> = new Set(['remove', 'stop', 'rollback', 'reject', 'refund', 'merge']);

/**
 * What says which action a plan does: its intent, the tasks it was written or learned for
 * (examples) and the phrasings it has run for since (learned aliases). Not its description,
 * whose sentences name every step ("… and check that it drained"): measured, it held back
 * right plans and let other actions through. An intent that only joins
 * the plan's op names (a learned plan whose episode never named its task) says how, not what.
 */
export function planActionNames(
  plan: { intent: string; examples?: readonly string[]; nodes: ReadonlyArray<{ op: string }> },
  aliases: readonly string[],
): string[] {
  const opsName = [...new Set(plan.nodes.map((node) => node.op))].join('_');
  const trailing = trailingAction(plan.intent);
  const intent = plan.intent === opsName ? [] : [plan.intent, ...(trailing ? [trailing.word] : [])];
  return [...intent, ...(plan.examples ?? []), ...aliases];
}

/** Action nouns a plan name may end with, as their verbs ("customer_data_deletion" deletes). */
const ACTION_NOUNS: ReadonlyMap<string, string> = new Map([
  ['deletion', 'delete'], ['removal', 'remove'], ['erasure', 'erase'], ['cleanup', 'clean up'], ['teardown', 'tear down'], ['creation', 'create'],
  ['deployment', 'deploy'], ['rotation', 'rotate'], ['restoration', 'restore'], ['recovery', 'recover'], ['termination', 'terminate'],
  ['cancellation', 'cancel'], ['suspension', 'suspend'], ['revocation', 'revoke'], ['invalidation', 'invalidate'], ['installation', 'install'],
  ['provisioning', 'provision'], ['decommissioning', 'decommission'], ['onboarding', 'onboard'], ['offboarding', 'offboard'], ['shutdown', 'shut down'], ['rollback', 'roll back'], ['reboot', 'reboot'],
  ['notification', 'notify'],
]);

/**
 * The verb a plan name ends with when it does not lead with one: names put the object first
 * ("billing_worker_restart", "cdn cache purge", "customer_data_deletion"), tasks the verb. A
 * name holding another classed word ("order_refund_email") says no single action.
 */
function trailingAction(name: string): ActionWord | undefined {
  if (leadingAction(name)) return undefined;
  const words = documentWords(name).toLowerCase().split(' ').filter(Boolean);
  if (words.length < 2) return undefined;
  const last = words.at(-1)!;
  // A name in the past tense reports a step (`pods_listed`, an event kind), not what the plan does.
  if (last.endsWith('ed') && !CLASS_OF.has(last)) return undefined;
  const found = classed(words.slice(-2).join(' ')) ?? classed(ACTION_NOUNS.get(last) ?? last);
  const others = words.slice(0, found?.word.includes(' ') ? -2 : -1);
  return found && !others.some((word) => classed(word) || ACTION_NOUNS.has(word)) ? found : undefined;
}

/** The classed verbs of a text, wherever they stand: verbs, phrasal verbs and action nouns (`/notifications` notifies). */
function classedWords(text: string): ActionWord[] {
  const words = documentWords(text).toLowerCase().split(' ').filter(Boolean);
  return words.flatMap((word, i) => {
    const noun = baseForms(word).map((form) => ACTION_NOUNS.get(form)).find(Boolean);
    return [classed(word), words[i + 1] ? classed(`${word} ${words[i + 1]}`) : undefined, noun ? classed(noun) : undefined].flatMap((a) => (a ? [a] : []));
  });
}

/** The action classes a text's words are of (classedWords). */
const actionsIn = (text: string) => classedWords(text).map((a) => a.action);

/** Where a task asks for more after its first request: "… and email it", "…, then upload it", "… . Then post it". */
const FURTHER = /,?\s+(?:and|then)\s+|[.;!?]\s+(?=then\b)/i;
/** Actions another one does as a part: a rotation makes the new and revokes the old, a backup uploads its copy. */
const PARTS: Readonly<Record<string, readonly string[]>> = { rotate: ['start', 'stop', 'remove'], backup: ['import', 'deploy'] };

/**
 * A further action a task asks for ("… and email it to the CFO", "Then upload it to s3://…") that
 * no word of the plan (`planWords`: its names, description, node ids, ops and params) is of the class of, so
 * that, run, it would do the first request and silently leave this one out. Reading (check, show,
 * list) leaves nothing undone that a run's result does not show. Or an action the task forbids
 * past its first words ("find the cheapest flight but don't book it") that a word of the plan is
 * of the class of (`flights_book`, a POST to `…/notifications`): run, the plan would do it.
 */
export function furtherActionConflict(task: string, planWords: readonly string[]): ActionConflict | undefined {
  const known = new Set(planWords.flatMap(actionsIn).flatMap((action) => [action, ...(PARTS[action] ?? [])]));
  for (const request of task.split(FURTHER).slice(1)) {
    const asked = leadingAction(request);
    if (asked && !asked.negated && asked.action !== 'read' && !known.has(asked.action)) return { task: asked.word, plan: [], also: true };
  }
  const forbidden = forbiddenActions(task).find((action) => known.has(action.action));
  return forbidden ? { task: `not ${forbidden.word}`, plan: [] } : undefined;
}

/** Words that forbid the action after them anywhere in a task ("… but don't book it", "no booking", "without emailing the attendees"). */
const FORBIDDING = new Set([...NEGATIONS, 'without']);
/** Words before "not" that make it forbid ("do not email", "but not restart"). */
const ASKING_NOT = new Set(['do', 'does', 'please', 'but', 'and', 'just', 'should', 'must', 'will']);
/** Words between a forbidding word and its verb ("don't even email", "not to book", "without a restart"). */
const BEFORE_VERB = new Set(['t', 'to', 'a', 'an', 'the', 'any', 'even', 'yet', 'be']);

/** The classed actions a task forbids, wherever it says so. */
function forbiddenActions(task: string): ActionWord[] {
  const words = documentWords(task).toLowerCase().split(' ').filter(Boolean);
  return words.flatMap((word, i) => {
    // "they are not renewing" states how things are; "do not", "please not", "but not" forbid.
    if (!FORBIDDING.has(word) || (word === 'not' && i > 0 && !ASKING_NOT.has(words[i - 1]!))) return [];
    let j = i + 1;
    while (BEFORE_VERB.has(words[j] ?? '')) j++;
    const action = (words[j + 1] ? classed(`${words[j]} ${words[j + 1]}`) : undefined) ?? classed(words[j] ?? '');
    return action ? [action] : [];
  });
}

/** A conflict in words, for messages: what the task asks and what the plan does instead. */
export function describeConflict(conflict: ActionConflict): string {
  if (conflict.also) return `the task also asks to "${conflict.task}", which nothing says the best match does`;
  const does = conflict.plan.length > 0 ? `, and the best match does "${conflict.plan.join('", "')}"` : '';
  if (conflict.task.startsWith('not ')) return `the task says "${conflict.task}"${does}`;
  if (conflict.plan.length === 0) return `the task asks to "${conflict.task}", which cannot be taken back, and the best match is not known to do it`;
  return `the task asks to "${conflict.task}", but the best match does "${conflict.plan.join('", "')}"`;
}
