/**
 * The value gate on held-out tasks: learned-style plans with fixed params, and tasks an agent
 * might type for them, each labelled run (the same job, new input values, incidental mentions)
 * or hold (another value for a fixed param). Written by someone who had not seen the gate's code,
 * after it was built (fixed-value-cases.ts), so the figures measure unseen wording.
 */
import type { Figure } from '../lib/scenario';
import { valueConflicts } from '../../src/domain/fixed-values';
import { FIXED_VALUE_CASES } from './fixed-value-cases';

/** Figures of the value gate on FIXED_VALUE_CASES, and the tasks it decided wrongly. */
export function fixedValueFigures(): { figures: Figure[]; notes: string[] } {
  const tasks = FIXED_VALUE_CASES.flatMap(({ plan, tasks }) => tasks.map((task) => ({ ...task, held: valueConflicts(plan, task.task).length > 0 })));
  const shouldRun = tasks.filter((t) => t.expect === 'run');
  const shouldHold = tasks.filter((t) => t.expect === 'hold');
  const falseHolds = shouldRun.filter((t) => t.held);
  const misses = shouldHold.filter((t) => !t.held);
  return {
    figures: [
      { label: 'value gate, held-out tasks that should run', value: shouldRun.length },
      { label: 'value gate, held-out tasks that should run, held back', value: falseHolds.length },
      { label: 'value gate, held-out tasks naming another value for a fixed param', value: shouldHold.length },
      { label: 'value gate, held-out tasks naming another value for a fixed param, held back', value: shouldHold.length - misses.length },
    ],
    notes: [
      ...falseHolds.map((t) => `value gate held back "${t.task}" (${t.why})`),
      ...misses.map((t) => `value gate let through "${t.task}" (${t.why})`),
    ],
  };
}
