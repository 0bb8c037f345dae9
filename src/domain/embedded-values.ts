/**
 * A value kept inside a longer fixed param that the task asks to change: a plan learned from two
 * reports of one week keeps `… WHERE week = '2025-W18'` in its query, and "the sales report for
 * week 2025-W20" would run for W18. Only values shaped as one can be told apart from the text
 * around them: parts joined by `-`, `.`, `:` or `/` with a digit among them (`2025-W18`,
 * `v1.3.0`, `eu-west-1`, `INC-3071`); a task word of the very same shape is another such value.
 */
import { valueShape, type Words } from './input-suggestions';
import type { FixedParam } from './value-kinds';

/** The pieces of a text that may be values: split at spaces, quotes, brackets and sentence punctuation. */
const PIECE = /[^\s"'`(),;!?<>[\]{}=]+/g;

/** Whether a piece is shaped as one value: parts joined by `-`, `.`, `:` or `/`, a digit among them, no URL. */
const isJoinedValue = (piece: string) => /\d/.test(piece) && /^[\p{L}\p{N}]+(?:[-.:/][\p{L}\p{N}]+)+$/u.test(piece) && !piece.includes('//');

/**
 * For each fixed string param, the task's word of the same shape as a joined value inside it,
 * where the task names no value the param holds and no input reads the word (`read`) or takes
 * values of that shape (`inputShapes`). A param that is one value whole is the other readings'.
 */
export function embeddedConflicts(
  fixed: readonly FixedParam[],
  words: Words,
  read: ReadonlyArray<string | number>,
  inputShapes: ReadonlySet<string>,
): Array<FixedParam & { task: string; embedded: string }> {
  const taskValues = new Map<string, string[]>();
  for (const word of new Set(words.bare.map((w) => w.replace(/[.:]+$/, '')))) {
    if (!isJoinedValue(word) || read.some((value) => String(value).toLowerCase() === word.toLowerCase())) continue;
    const shape = valueShape(word);
    if (!inputShapes.has(shape)) taskValues.set(shape, [...(taskValues.get(shape) ?? []), word]);
  }
  if (taskValues.size === 0) return [];
  const named = new Set(words.bare.map((w) => w.toLowerCase()));
  return fixed.flatMap((f) => {
    if (typeof f.value !== 'string' || isJoinedValue(f.value)) return [];
    const pieces = (f.value.match(PIECE) ?? []).filter(isJoinedValue);
    if (pieces.some((piece) => named.has(piece.toLowerCase()))) return [];
    for (const piece of pieces) {
      const other = taskValues.get(valueShape(piece))?.find((word) => word.toLowerCase() !== piece.toLowerCase());
      if (other) return [{ ...f, task: other, embedded: piece }];
    }
    return [];
  });
}
