/**
 * A server span per HTTP request when tracing is on, named `<METHOD> <route>` with the HTTP
 * semantic-convention attributes; a caller's `traceparent` header makes it a child of the
 * caller's trace. The handler runs inside the span, so the Temporal client's StartWorkflow span
 * (and through it the workflow and its activities) joins the same trace.
 */
import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tracing } from '../telemetry/tracing';

const spans = new WeakMap<FastifyRequest, Span>();

export function registerRequestSpans(app: FastifyInstance, tracing: Tracing): void {
  const { context, propagation, SpanKind, SpanStatusCode, trace } = tracing.api;
  app.addHook('onRequest', async (request) => {
    const parent = propagation.extract(context.active(), request.headers);
    const route = request.routeOptions.url;
    const span = tracing.tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?')[0]!,
          ...(route && { 'http.route': route }),
          'server.address': request.hostname,
        },
      },
      parent,
    );
    spans.set(request, span);
  });
  // Entered after the body is read (its stream events run outside any request's context), so
  // everything the handler awaits sees the span as current.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (!span) return done();
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    spans.delete(request);
  });
}
