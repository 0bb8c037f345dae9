/**
 * A route is declared once with its zod schemas; the same declaration validates requests,
 * types the handler and feeds the OpenAPI document served at /docs.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { formatPath } from '../domain/graph';
import { DomainError } from '../domain/errors';
import type { Principal } from '../domain/principal';

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
  response?: z.ZodType;
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
  const fields = result.error.issues.map((issue) => ({
    field: [where, formatPath(issue.path)].filter(Boolean).join('.'),
    message: issue.message,
  }));
  throw new DomainError('bad_request', `invalid ${where}: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`, { fields });
}
