/**
 * A period the plan's own wording names where the task names another: a plan learned as "Build
 * the weekly sales report" does the weekly one, and "the monthly sales report" is another job,
 * though no param holds "weekly" (the period lives in the dates or queries it runs with).
 */
import type { Words } from './input-suggestions';
import { valueClass } from './value-classes';

/** Classes whose member names which job a plan does, not only how it is set. */
const JOB_CLASSES: ReadonlySet<string> = new Set(['period']);

/** Members of the job classes that words name, by class. */
function membersIn(words: Iterable<string>): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const word of words) {
    const known = valueClass(word, true);
    if (known && JOB_CLASSES.has(known.kind)) found.set(known.kind, (found.get(known.kind) ?? new Set()).add(known.member));
  }
  return found;
}

/**
 * The task's member and the plan's, where the plan's phrasings name one member of a job class,
 * the task names another and not the plan's, and no input takes the class's values (`kinds`).
 */
export function wordedConflicts(phrasings: readonly string[], task: Words, inputKinds: ReadonlySet<string>): Array<{ task: string; plan: string }> {
  const planMembers = membersIn(phrasings.flatMap((phrasing) => phrasing.toLowerCase().split(/[^\p{L}\p{N}-]+/u)));
  const taskMembers = membersIn(task.lower);
  return [...taskMembers].flatMap(([kind, members]) => {
    const own = planMembers.get(kind);
    if (inputKinds.has(kind) || own?.size !== 1) return [];
    const [plan] = own;
    return members.has(plan!) ? [] : [...members].map((member) => ({ task: member, plan: plan! }));
  });
}
