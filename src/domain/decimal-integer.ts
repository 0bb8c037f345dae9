/**
 * A whole number as a query string or an environment variable writes it (or as a number, from a
 * caller in process). `z.coerce.number()` would also read '', ' 5', '1e2' and '0x10' as numbers;
 * only decimal digits are meant.
 */
import { z } from 'zod';

export const decimalInteger = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .union([z.number(), z.string()])
    .refine((value) => typeof value === 'number' || /^\d+$/.test(value), 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(z.int().min(min).max(max));
