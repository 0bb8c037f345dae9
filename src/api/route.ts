/**
 * A route is declared once with its zod schemas; the same declaration validates requests,
 * types the handler, serialises the response (nothing leaves that its schema does not name) and
 * feeds the OpenAPI document served at /docs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatPath } from '../domain/graph';
import { fieldIssues } from '../domain/schema-issues';
import { DomainError } from '../domain/errors';
import type { Principal } from '../domain/principal';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: set by the API's key hook before any route runs. */
    principal: Principal;
  }
}

export interface RouteRequest<B, P, Q> {
  body: B;
  params: P;
  query: Q;
  principal: Principal;
  raw: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDefinition<B extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  summary: string;
  tags?: string[];
  body?: B;
  params?: P;
  query?: Q;
  /** Success status (200 by default). */
  status?: number;
  /** Another success status the handler sends itself (same response schema), and when: listed in the OpenAPI document. */
  alsoStatus?: { status: number; description: string };
  /** What the handler's result is parsed through before it is sent: unnamed fields are dropped. */
  response: z.ZodType;
  handler(req: RouteRequest<z.infer<B>, z.infer<P>, z.infer<Q>>): Promise<unknown>;
}

/** Declares a route (identity function that keeps the schema types). */
export function defineRoute<B extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(
  route: RouteDefinition<B, P, Q>,
): RouteDefinition {
  return route as unknown as RouteDefinition;
}

/** Parses a request part with a zod schema; failures become 400s naming each field. */
export function parseWith<T extends z.ZodType>(schema: T | undefined, value: unknown, where: 'body' | 'params' | 'query'): z.infer<T> {
  if (!schema) return value as z.infer<T>;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = fieldIssues(result.error).map((issue) => ({ field: [where, formatPath(issue.path)].filter(Boolean).join('.'), message: issue.message }));
  throw new DomainError('bad_request', `invalid ${where}: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`, { fields });
}

/**
 * What a route that declares no body or query accepts: nothing (an empty JSON object counts as
 * no body). A misspelt `?limt=5` or a body a route ignores is refused, never silently dropped.
 */
const NOTHING = z.object({}).strict();

/** Registers a route: requests parsed by its schemas, the result serialised through its response schema. */
export function mountRoute(app: FastifyInstance, route: RouteDefinition): void {
  app.route({
    method: route.method,
    url: route.url,
    handler: async (request, reply) => {
      const result = await route.handler({
        body: parseWith(route.body ?? NOTHING, request.body ?? {}, 'body'),
        params: parseWith(route.params, request.params, 'params'),
        query: parseWith(route.query ?? NOTHING, request.query, 'query'),
        principal: request.principal,
        raw: request,
        reply,
      });
      if (reply.sent) return reply;
      // A result its own schema refuses is our bug: it fails as a 500 rather than leak or mislead.
      return reply.status(route.status ?? 200).send(route.response.parse(result));
    },
  });
}
