/** The OpenAPI 3.1 document, generated from the routes' zod schemas. */
import { z } from 'zod';
import type { RouteDefinition } from './route';

const toSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/** A route's query schema as OpenAPI query parameters, one per field, with its description. */
function queryParameters(query: z.ZodType | undefined) {
  if (!query) return [];
  const schema = toSchema(query) as { properties?: Record<string, { description?: string }>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    ...(property.description && { description: property.description }),
    schema: property,
  }));
}

export function buildOpenApi(routes: readonly RouteDefinition[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const parameters = [
      ...[...route.url.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(route.query),
    ];
    const content = { [route.response instanceof z.ZodString ? 'text/plain' : 'application/json']: { schema: toSchema(route.response) } };
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: route.tags,
      parameters,
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.body) } } } } : {}),
      responses: {
        [String(route.status ?? 200)]: { description: 'success', content },
        ...(route.alsoStatus ? { [String(route.alsoStatus.status)]: { description: route.alsoStatus.description, content } } : {}),
        default: { description: 'error: {error: {code, message, details}}' },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'plangraph', version: '0.1.0', description: 'Plan-graph memory executed as Temporal workflows' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
