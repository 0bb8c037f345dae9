/**
 * The `Idempotency-Key` request header, as many HTTP APIs take it, read as the body's
 * `idempotency_key`: a retry that sends the key either way is the same request. Both at once,
 * with different keys, is a 400, since which one was meant cannot be told.
 */
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors';
import { textProblem } from '../domain/json-limits';
import { idempotencyKeySchema } from '../domain/records';

const FIELD = 'headers.idempotency-key';

export function withIdempotencyHeader<B extends { idempotency_key?: string }>(body: B, request: FastifyRequest): B {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return body;
  const key = Array.isArray(header) ? header.join(', ') : header;
  const refuse = (message: string) => new DomainError('bad_request', `invalid header: ${FIELD}: ${message}`, { fields: [{ field: FIELD, message }] });
  const problem = idempotencyKeySchema.safeParse(key).error?.issues[0]?.message ?? textProblem(key);
  if (problem) throw refuse(problem);
  if (body.idempotency_key !== undefined && body.idempotency_key !== key) throw refuse('differs from body.idempotency_key; send the key once');
  return { ...body, idempotency_key: key };
}
