/** Responses leave through their route's zod schema: unnamed fields never reach the caller. */
import Fastify from 'fastify';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../src/domain/principal';
import { handleError } from '../../src/api/errors';
import { defineRoute, mountRoute } from '../../src/api/route';

const app = Fastify();
app.setErrorHandler(handleError);
app.addHook('onRequest', async (request) => {
  request.principal = ANONYMOUS;
});
const account = z.object({ id: z.string(), name: z.string() });
mountRoute(app, defineRoute({ method: 'GET', url: '/leaky', summary: 'returns more than it declares', response: account, handler: async () => ({ id: 'a1', name: 'Ada', password_hash: 'x' }) }));
mountRoute(app, defineRoute({ method: 'GET', url: '/wrong', summary: 'returns what it does not declare', response: account, handler: async () => ({ id: 7 }) }));
afterAll(() => app.close());

describe('route responses are serialised through their schema', () => {
  it('drops every field the response schema does not name', async () => {
    const res = await app.inject({ method: 'GET', url: '/leaky' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a1', name: 'Ada' });
  });

  it('a result its schema refuses is a server error, never sent as it is', async () => {
    const res = await app.inject({ method: 'GET', url: '/wrong' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('"id":7');
  });
});
