/**
 * Lossless jsonb for values written by activities. Postgres' jsonb refuses a NUL character and
 * lone UTF-16 surrogates, both common in what failing tools print; a write refused for them
 * would be retried forever. Such a value is stored instead as its own JSON text inside a
 * one-key envelope, `{"$json": "<JSON text>"}`, whose escapes (`\\u0000`, `\\ud800`) jsonb
 * holds as plain characters; readers unwrap it and get the value back exactly.
 */
import { unstorablePath } from '../domain/json-limits';

const ENVELOPE_KEY = '$json';

/** JSON text for a jsonb parameter that Postgres accepts whatever strings the value holds. */
export function toJsonbText(value: unknown): string {
  const text = JSON.stringify(value);
  return unstorablePath(value) ? JSON.stringify({ [ENVELOPE_KEY]: text }) : text;
}

/** The value toJsonbText was given, from what Postgres returns for the column. */
export function fromJsonb(stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return stored;
  const keys = Object.keys(stored);
  const text = (stored as Record<string, unknown>)[ENVELOPE_KEY];
  return keys.length === 1 && typeof text === 'string' ? JSON.parse(text) : stored;
}
