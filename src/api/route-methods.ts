/**
 * The methods each path has routes for, so a request with another method gets a 405 with `Allow`
 * (RFC 9110 §15.5.6) instead of a 404 that says the path itself is wrong.
 */
import type { FastifyInstance } from 'fastify';

/** Records every route mounted from now on; returns the methods a request path has routes for. */
export function trackRouteMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  app.addHook('onRoute', (route) => {
    routes.push({ pattern: pathPattern(route.url), methods: [route.method].flat() });
  });
  return (path) => [...new Set(routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods))].sort();
}

/** A Fastify path (`/v1/runs/:id`, `/ui/*`) as a regular expression over request paths. */
function pathPattern(url: string): RegExp {
  const segment = (part: string) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${url.split('/').map(segment).join('/')}$`);
}
