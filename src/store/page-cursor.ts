/**
 * Keyset page cursors: the last row's sort key (a timestamp and the row's key columns), opaque to
 * callers. The timestamp travels as Postgres wrote it, microseconds intact: cut to an ISO
 * string's milliseconds it would skip rows that started in the same millisecond.
 */
import { DomainError } from '../domain/errors';
import { timestamptzFromText } from '../domain/timestamps';

export const encodePageCursor = (at: string, ...keys: string[]) => Buffer.from(JSON.stringify([at, ...keys])).toString('base64url');

/** A cursor's timestamp and its `keyCount` keys, each passing `keyOk`; otherwise a 400 naming `query.cursor`. */
export function decodePageCursor(cursor: string, keyCount: number, keyOk: (key: string) => boolean): [string, ...string[]] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    // The timestamp goes to Postgres as timestamptz: anything it would refuse is a bad cursor, not a 500.
    const [text, ...keys] = Array.isArray(value) ? (value as unknown[]) : [];
    const at = typeof text === 'string' ? timestamptzFromText(text) : undefined;
    const valid = keys.length === keyCount && keys.every((key) => typeof key === 'string' && keyOk(key));
    if (at && valid) return [at, ...(keys as string[])];
  } catch {
    // fall through to the error below
  }
  const message = 'not a next_cursor of this list';
  throw new DomainError('bad_request', `invalid query: query.cursor: ${message}`, { fields: [{ field: 'query.cursor', message }] });
}
