/**
 * Flag values checked as commander parses them, so a bad one is a single line naming the flag
 * (src/cli/main.ts prints a UsageError's message) instead of the issue list the library's zod
 * schema would throw once services are up.
 */
import type { z } from 'zod';
import { temporalIdSchema } from '../domain/run-schemas';

/** A mistake in how the command was called; printed as one line, no stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A commander argument parser for an integer flag from `min` to `max` (no upper bound by default). */
export function integerFlag(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  const expected = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return (value) => {
    // Number() alone would take '', ' ', '1e2' and '0x10'; only plain decimal digits are meant.
    const n = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be ${expected}, got "${value}"`);
    return n;
  };
}

/** A commander argument parser checking a flag's value with a zod schema (the API's, so both accept the same). */
export function schemaFlag<T>(flag: string, schema: z.ZodType<T, string>): (value: string) => T {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new UsageError(`${flag}: ${parsed.error.issues[0]?.message ?? 'invalid'}, got "${value}"`);
    return parsed.data;
  };
}

/** A `<workflow_id>` or `<node_id>` argument, checked as the API checks it (an empty one is refused before Temporal is asked). */
export const idArgument = (name: string) => schemaFlag(name, temporalIdSchema);
