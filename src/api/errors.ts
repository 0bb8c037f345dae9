/**
 * The HTTP error model: every failure is `{error: {code, message, details}}` with a status
 * decided by its code, in one place.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_plan: 422,
  invalid_inputs: 422,
  invalid_record: 422,
  not_a_plan: 422,
  not_an_episode: 422,
  plan_retracted: 409,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  needs_more: 422,
  payload_too_large: 413,
  unavailable: 503,
  internal: 500,
};

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, details } };
}

/** The single Fastify error handler. */
export function handleError(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  if (err instanceof DomainError) {
    void reply.status(STATUS_BY_CODE[err.code]).send(errorBody(err.code, err.message, err.details));
    return;
  }
  const fastifyErr = err as FastifyError;
  if (fastifyErr.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    void reply.status(413).send(errorBody('payload_too_large', 'request body is larger than the limit', {}));
    return;
  }
  if (fastifyErr.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fastifyErr.statusCode === 415) {
    void reply.status(400).send(errorBody('bad_request', 'request body must be application/json', {}));
    return;
  }
  if (fastifyErr.statusCode && fastifyErr.statusCode >= 400 && fastifyErr.statusCode < 500) {
    // Fastify's own 4xx (a bad header, a body on a method without one): its message says what.
    void reply.status(400).send(errorBody('bad_request', fastifyErr.message, {}));
    return;
  }
  request.log.error({ err }, 'unhandled error');
  void reply.status(500).send(errorBody('internal', 'internal error', {}));
}

/**
 * Errors Fastify's router raises before any route runs (a URL that is not valid UTF-8, a path
 * segment over the length limit), in the one error shape instead of Fastify's own.
 */
export function handleFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const problem = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? `a path segment is longer than ${MAX_PATH_PARAM_LENGTH} characters` : err.message;
  void reply.status(400).send(errorBody('bad_request', `invalid url: ${problem}`, { fields: [{ field: 'url', message: problem }] }));
}

/** Longest path parameter (a workflow or node id): Temporal's own default limit on ids. */
export const MAX_PATH_PARAM_LENGTH = 1000;
