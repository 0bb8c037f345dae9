/**
 * Context for the intent, API and MCP tests: the run's Temporal server and a worker on the
 * file's own task queue, the full API (app.inject), and a database of the file's own.
 *
 * Why a private database: selection confidence is relative — (best − second) / best over every
 * plan the caller can see — so plans stored by other test files in the shared database would
 * decide whether these tests see a confident pick or `needs_more`. Within the file, each test
 * isolates its plans further with a scope of its own.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApi } from '../../src/api/server';
import { createScratchDatabase } from '../../src/db/client';
import type { Sensitivity } from '../../src/domain/records';
import { createServices, type Services } from '../../src/services';
import { createTestContext, type TestContext } from './harness';

export interface ApiTestContext extends TestContext {
  services: Services;
  app: FastifyInstance;
  /** Creates an API key; returns the plain key. */
  key(principal: string, maxSensitivity: Sensitivity, scopes?: string[]): Promise<string>;
  /** A JSON request through the API, optionally with an API key. */
  call(method: 'GET' | 'POST', url: string, body?: unknown, apiKey?: string): Promise<LightMyRequestResponse>;
  /** Rows in a table, for "nothing was stored" checks. */
  count(table: 'memory_records' | 'plan_runs' | 'audit_log'): Promise<number>;
}

export async function createApiTestContext(overrides: Record<string, string> = {}): Promise<ApiTestContext> {
  // A database of this file's own: selection confidence depends on every plan the caller can see.
  const database = await createScratchDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_api`);
  const ctx = await createTestContext({ DATABASE_URL: database.url, ...overrides });
  // As `plangraph dev` wires it: runs start eagerly on the file's worker when it runs.
  const services = await createServices(ctx.config, { workerConnection: ctx.nativeConnection });
  const app = await buildApi(services);
  return {
    ...ctx,
    services,
    app,
    async key(principal, maxSensitivity, scopes) {
      return (await services.apiKeys.create(principal, maxSensitivity, scopes)).key;
    },
    call(method, url, body, apiKey) {
      return app.inject({
        method,
        url,
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      });
    },
    async count(table) {
      const result = await services.db.$client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      return result.rows[0]!.n;
    },
    async close() {
      await app.close();
      await services.close();
      await ctx.close();
      await database.drop();
    },
  };
}

/** The error body every failure answers with. */
export function errorOf(response: LightMyRequestResponse): { code: string; message: string; details: Record<string, unknown> } {
  const body = response.json() as { error?: { code: string; message: string; details: Record<string, unknown> } };
  if (!body.error || typeof body.error.code !== 'string' || typeof body.error.message !== 'string' || typeof body.error.details !== 'object') {
    throw new Error(`not an error body: ${response.body}`);
  }
  return body.error;
}
