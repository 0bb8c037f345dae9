/**
 * Events that report a step the agent took for a task already given (`contact_found` "Found
 * Priya Patel", `slack_posted` "Posted to #deal-desk"): what they say is what the agent did, not
 * a value the task states. A kind in the past tense before any task was given is the trigger that
 * gave it (`deploy_requested`, `ticket_opened`) and still states values.
 */
import type { EpisodicPayload } from '../domain/records';

/** The words of an event kind or a note: `taskCompleted` → task, completed. */
export const wordsOf = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/** Past participles not ending in -ed (`email_sent`, `contact_found`). */
const IRREGULAR = new Set('found sent built made taken given written shown paid kept held sold told chosen drawn begun bought brought'.split(' '));
/** Words ending in -ed that are no past participle. */
const NOT_PARTICIPLES = new Set('need feed seed speed embed shed shred breed weed deed greed bleed hundred'.split(' '));

/** Particles ending a phrasal verb: `deployment_rolled_back` is in the past tense by `rolled`. */
const PARTICLES = new Set(['back', 'over', 'up', 'down', 'out', 'off', 'on', 'in']);

/** Whether an event kind ends in a past participle: it says what was done (`invoiceCreated`, `deals_listed`, `database_failed_over`). */
function isPastTense(kind: string): boolean {
  const words = wordsOf(kind);
  const last = (PARTICLES.has(words.at(-1) ?? '') ? words.at(-2) : words.at(-1)) ?? '';
  return IRREGULAR.has(last) || (last.length > 3 && last.endsWith('ed') && !NOT_PARTICIPLES.has(last));
}

/** Words of event kinds that give an agent its task (`user_request`, `task`, `customer_message`). */
const GIVES_TASK = new Set('user human customer client goal task request prompt instruction instructions ask question'.split(' '));
/** Past participles of the user's side speaking (`user_replied`), where `user_found` is a step the agent took. */
const SPOKE = new Set('replied answered clarified confirmed responded provided specified corrected asked requested said wrote added'.split(' '));

/**
 * The indexes of the events reporting a step: in the past tense, after an event that gave the
 * task, and not the user's side speaking (`user_replied` still states values).
 */
export function stepReports(timeline: EpisodicPayload['timeline']): Set<number> {
  const reports = new Set<number>();
  let given = false;
  timeline.forEach((event, i) => {
    const words = wordsOf(event.event_kind);
    const userSide = words.some((word) => GIVES_TASK.has(word));
    if (given && isPastTense(event.event_kind) && !(userSide && SPOKE.has(words.at(-1)!))) reports.add(i);
    else if (userSide) given = true;
  });
  return reports;
}
