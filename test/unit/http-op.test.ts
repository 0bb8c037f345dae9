/**
 * The http_request op against real sockets on this machine: a request that gets no answer says
 * why (fetch's own message is only "fetch failed"), and a port fetch refuses is not retried.
 */
import { createServer } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { createHttpRequestOp } from '../../src/ops/builtins';

const op = createHttpRequestOp({ allowedHosts: [] });
const ctx = { heartbeat: () => undefined, signal: new AbortController().signal };
const send = (url: string) => op.run(op.params.parse({ url }), ctx as never);

/** A port nothing listens on: bound, noted and closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('http_request: requests that get no answer', () => {
  it('names the network reason (connection refused) and stays retryable', async () => {
    const error = await send(`http://127.0.0.1:${await closedPort()}/x`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'http_network_error', nonRetryable: false, message: expect.stringMatching(/^request to 127\.0\.0\.1 failed: .*ECONNREFUSED/) });
  });

  it('does not retry a port fetch refuses to call', async () => {
    const error = await send('http://127.0.0.1:9/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'http_bad_port', nonRetryable: true, message: 'request to 127.0.0.1 not sent: fetch refuses to call that port' });
  });
});
