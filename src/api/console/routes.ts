/**
 * The web console at /ui: server-rendered shells, the client's static modules and the graph
 * layout library from node_modules. Served by the API process itself; it holds no data and
 * no privileges of its own (the client calls /v1 with the user's key).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_ASSETS_DIR } from '../../package-files';
import { renderNotFound, renderShell, type ConsolePage } from './shell';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

interface Asset {
  body: Buffer;
  type: string;
}

/** Every file the console serves, read once at start-up: no path from a request touches the disk. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(CONSOLE_ASSETS_DIR)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(`/ui/assets/${name}`, { body: readFileSync(join(CONSOLE_ASSETS_DIR, name)), type });
  }
  // ELK's layered layout, run in a Web Worker so laying out a large plan never blocks the page.
  const elkWorker = createRequire(import.meta.url).resolve('elkjs/lib/elk-worker.min.js');
  assets.set('/ui/vendor/elk-worker.js', { body: readFileSync(elkWorker), type: TYPES['.js']! });
  return assets;
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

function sendHtml(reply: FastifyReply, html: string) {
  return reply
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** Registers the console's routes on the API. */
export function registerConsole(app: FastifyInstance): void {
  const assets = loadAssets();
  const shell = (url: string, page: ConsolePage, param?: 'workflow_id' | 'id') =>
    app.get(url, (request, reply) =>
      sendHtml(reply, renderShell(page, param ? (request.params as Record<string, string>)[param] : undefined)),
    );
  app.get('/ui', (_request, reply) => reply.redirect('/ui/runs'));
  shell('/ui/runs', 'runs');
  shell('/ui/runs/:workflow_id', 'run', 'workflow_id');
  shell('/ui/plans', 'plans');
  shell('/ui/plans/:id', 'plan', 'id');
  shell('/ui/explore', 'explore');
  // A mistyped or stale console link gets a page of the console, not the API's JSON 404.
  app.get('/ui/*', (request, reply) => sendHtml(reply.status(404), renderNotFound(request.url.split('?')[0]!)));
  for (const [url, asset] of assets) {
    app.get(url, (_request, reply) =>
      reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache').type(asset.type).send(asset.body),
    );
  }
}
