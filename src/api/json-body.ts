/**
 * The JSON body parser. Fastify's own answers every malformed body with one fixed sentence,
 * refuses a `__proto__` key without saying where and an empty body outright, and stores bytes
 * that are not UTF-8 as U+FFFD; this one refuses those bytes, keeps the JSON parser's message
 * (what and at which position) and leaves key checks to the body check, which names the field.
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors';
import { inexactIntegerProblem } from '../domain/json-limits';
import { utf8Problem } from '../domain/utf8-bytes';

/**
 * The body as JSON, or a 400 naming what is wrong with the text. An empty body is no body, as
 * without a content-type (many clients label a bodiless POST as JSON): the route's schema decides.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  let value: unknown;
  try {
    // JSON.parse defines `__proto__` as an own key; the preValidation body check refuses it.
    value = JSON.parse(text);
  } catch (error) {
    throw malformed(`is not valid JSON: ${(error as Error).message}`);
  }
  const inexact = inexactIntegerProblem(text);
  if (inexact) throw malformed(inexact);
  return value;
}

/** The body's bytes as text, or a 400 naming the first byte that is not UTF-8. */
export function bodyText(bytes: Buffer): string {
  const problem = utf8Problem(bytes);
  if (problem) throw malformed(`${problem}; send JSON as UTF-8`);
  return bytes.toString('utf8');
}

function malformed(message: string): DomainError {
  return new DomainError('bad_request', `invalid body: body ${message}`, { fields: [{ field: 'body', message }] });
}

/** A body in any other media type: empty, it is no body (a browser's bodiless `fetch` sends text/plain); else a 400. */
function otherMediaType(_request: unknown, body: Buffer): Promise<undefined> {
  if (body.length === 0) return Promise.resolve(undefined);
  return Promise.reject(new DomainError('bad_request', 'request body must be application/json', { fields: [{ field: 'body', message: 'must be application/json' }] }));
}

/**
 * Puts parseJsonBody in place of Fastify's JSON parser, and refuses every other media type,
 * text/plain included (Fastify would otherwise pass its text on as a string).
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (_request: unknown, body: Buffer) => parseJsonBody(bodyText(body)));
  app.addContentTypeParser('*', { parseAs: 'buffer' }, otherMediaType);
}
