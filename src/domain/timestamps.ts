/**
 * Instants compared with a Postgres timestamptz column. ISO-8601 text can name values Postgres
 * refuses with an error (year 0000, an offset past ±15:59): checked here, such a value is a 400
 * naming its parameter rather than a 500 from the query.
 */
import { z } from 'zod';

/** Offsets Postgres accepts in timestamptz input run to ±15:59. */
const MAX_OFFSET_HOURS = 15;

/** Years 0001–9999 (the ISO form has four digits) with an offset Postgres accepts. */
function fitsTimestamptz(iso: string): boolean {
  const offset = /[+-](\d\d):\d\d$/.exec(iso);
  return Number(iso.slice(0, 4)) >= 1 && (!offset || Number(offset[1]) <= MAX_OFFSET_HOURS);
}

/** An ISO-8601 instant with an offset ("2024-05-01T12:00:00Z", "…+02:00") that Postgres can hold. */
export const timestamptzSchema = z.iso
  .datetime({ offset: true, abort: true })
  .refine(fitsTimestamptz, 'must be in the years 0001–9999, with an offset of at most ±15:59');

/**
 * Postgres's own text for a timestamptz ("2024-05-01 12:00:00.123456+00") in the ISO form
 * timestamptzSchema reads, or undefined when it is not one.
 */
export function timestamptzFromText(text: string): string | undefined {
  const iso = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return timestamptzSchema.safeParse(iso).success ? iso : undefined;
}
