/**
 * Why retrieval held back a confident pick: the task asks for another action than the plan does
 * (action-words.ts), or names a value the plan keeps fixed (fixed-values.ts).
 */
import { describeConflict } from './action-words';
import { describeValueConflicts } from './fixed-values';
import type { Selection } from './scoring';

/** The reason in words; undefined when nothing held the pick back. */
export function holdReason(selection: Pick<Selection, 'action_conflict' | 'value_conflict'>): string | undefined {
  if (selection.action_conflict) return describeConflict(selection.action_conflict);
  if (selection.value_conflict?.length) return describeValueConflicts(selection.value_conflict);
  return undefined;
}
