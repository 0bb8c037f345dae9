/**
 * The HTTP API (docs/api.md): Fastify, one error handler, routes declared with zod schemas.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Services } from '../services';
import { ANONYMOUS, type Principal } from '../domain/principal';
import { keyFromHeaders } from './auth';
import { errorBody, handleError, handleFrameworkError, MAX_PATH_PARAM_LENGTH } from './errors';
import { mountRoute, type RouteDefinition } from './route';
import { allRoutes } from './routes';
import { buildOpenApi } from './openapi';
import { registerConsole } from './console/routes';
import { DomainError } from '../domain/errors';
import { formatPath } from '../domain/graph';
import { jsonProblem } from '../domain/json-limits';
import { activeTracing } from '../telemetry/tracing';
import { registerRequestSpans } from './request-spans';
import { registerJsonBody } from './json-body';
import { queryProblem } from './query-check';
import { trackRouteMethods } from './route-methods';

export interface ApiOptions {
  /** Log every request at LOG_LEVEL; without it only unhandled errors (500s) are logged, always. */
  logger?: boolean;
  /** Where the logger writes (stdout by default); tests capture it to check what is logged. */
  logStream?: NodeJS.WritableStream;
}

/** A request as logged: query values are dropped, since a caller may put a key or token there. */
function requestForLog(request: FastifyRequest) {
  const [path, query] = request.url.split('?');
  const names = query ? [...new URLSearchParams(query).keys()].map((name) => `${name}=…`).join('&') : '';
  return { method: request.method, url: names ? `${path}?${names}` : path, host: request.host, remoteAddress: request.ip };
}

/** Builds the API over the given services (does not listen). */
export async function buildApi(services: Services, options: ApiOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // A 500's cause must reach the operator even when request logging is off (`internal` says "see the log").
    logger: {
      level: options.logger ? services.config.LOG_LEVEL : 'error',
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
      serializers: { req: requestForLog },
      ...(options.logStream && { stream: options.logStream }),
    },
    bodyLimit: services.config.API_BODY_LIMIT_BYTES,
    // Fastify's default (100) refused the workflow ids plangraph itself makes for long plan ids.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    frameworkErrors: handleFrameworkError,
  });
  app.decorateRequest('principal', null as unknown as Principal);
  const tracing = activeTracing();
  if (tracing) registerRequestSpans(app, tracing);
  app.setErrorHandler(handleError);
  registerJsonBody(app);
  const methodsFor = trackRouteMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methodsFor(path);
    if (allowed.length === 0) return void reply.status(404).send(errorBody('not_found', `no route ${request.method} ${path}`));
    void reply
      .status(405)
      .header('allow', allowed.join(', '))
      .send(errorBody('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { allowed }));
  });
  // Every body is checked once, before any route sees it: nesting that would overflow recursive
  // code downstream, text or numbers Postgres could not store as given, and keys that could
  // replace a prototype (json-limits.ts). The query string too, before it (query-check.ts).
  app.addHook('preValidation', async (request) => {
    const query = queryProblem(request.url, request.query);
    if (query) throw new DomainError('bad_request', `invalid query: ${query.field}: ${query.message}`, { fields: [query] });
    const problem = jsonProblem(request.body);
    if (!problem) return;
    const field = formatPath(['body', ...problem.path]);
    throw new DomainError('bad_request', `invalid body: ${field}: ${problem.message}`, { fields: [{ field, message: problem.message }] });
  });
  app.addHook('onRequest', async (request) => {
    request.principal = ANONYMOUS;
    const key = keyFromHeaders(request.headers);
    if (key === undefined) return;
    const principal = await services.apiKeys.resolve(key);
    if (!principal) throw new DomainError('unauthenticated', 'unknown or revoked API key');
    request.principal = principal;
  });

  const routes: RouteDefinition[] = allRoutes(services);
  for (const route of routes) mountRoute(app, route);
  const openapi = buildOpenApi(routes);
  app.get('/docs', async () => openapi);
  registerConsole(app);
  return app;
}
