/**
 * The value gate on held-out tasks: learned-style plans with fixed params, and tasks an agent
 * might type for them, each labelled run (the same job, new input values, incidental mentions)
 * or hold (another value for a fixed param). Each set was written by someone who had seen neither
 * the gate's code nor the other sets (fixed-value-cases*.ts), so a set measures unseen wording on
 * its first run; the scenario's description says what was changed after each.
 */
import type { Figure } from '../lib/scenario';
import { valueConflicts } from '../../src/domain/fixed-values';
import { FIXED_VALUE_CASES, type FixedValueCase } from './fixed-value-cases';
import { FIXED_VALUE_CASES_2 } from './fixed-value-cases-2';
import { FIXED_VALUE_CASES_3 } from './fixed-value-cases-3';

const SETS: Array<{ name: string; cases: FixedValueCase[] }> = [
  { name: 'set 1', cases: FIXED_VALUE_CASES },
  { name: 'set 2', cases: FIXED_VALUE_CASES_2 },
  { name: 'set 3', cases: FIXED_VALUE_CASES_3 },
];

/** Figures of the value gate on each held-out set, and the tasks it decided wrongly. */
export function fixedValueFigures(): { figures: Figure[]; notes: string[] } {
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const { name, cases } of SETS) {
    const tasks = cases.flatMap(({ plan, tasks }) => tasks.map((task) => ({ ...task, held: valueConflicts(plan, task.task).length > 0 })));
    const shouldRun = tasks.filter((t) => t.expect === 'run');
    const shouldHold = tasks.filter((t) => t.expect === 'hold');
    const falseHolds = shouldRun.filter((t) => t.held);
    const misses = shouldHold.filter((t) => !t.held);
    figures.push(
      { label: `value gate ${name}: tasks that should run, held back`, value: `${falseHolds.length} of ${shouldRun.length}` },
      { label: `value gate ${name}: tasks naming another value for a fixed param, held back`, value: `${shouldHold.length - misses.length} of ${shouldHold.length}` },
    );
    notes.push(
      ...falseHolds.map((t) => `value gate ${name} held back "${t.task}" (${t.why})`),
      ...misses.map((t) => `value gate ${name} let through "${t.task}" (${t.why})`),
    );
  }
  return { figures, notes };
}
