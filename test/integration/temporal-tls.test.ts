/**
 * Temporal over TLS and mutual TLS, configured the way Temporal users configure it
 * (TEMPORAL_TLS_* variables or a profile in Temporal's TOML file): the client, the worker and
 * the CLI reach the server through a TLS-terminating proxy with certificates made at test time,
 * and every wrong certificate is one line naming what to check.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { startPlanRun } from '../../src/runs/start-run';
import { connectTemporal } from '../../src/temporal/connection';
import { connectWorker } from '../../src/temporal/worker';
import { settle } from './executor-helpers';
import { createTestContext, uid } from './harness';
import { storePlan } from './plans';
import { makeTestCertificates, opensslAvailable, startTlsProxy, TLS_SERVER_NAME, type TestCertificates, type TlsProxy } from './tls-proxy';

let certs: TestCertificates;
let proxy: TlsProxy;
beforeAll(async () => {
  if (!opensslAvailable) return;
  certs = makeTestCertificates();
  proxy = await startTlsProxy(inject('temporalAddress'), certs);
});
afterAll(() => proxy?.close());

/** TEMPORAL_* variables for mTLS through the proxy, with overrides. */
function tlsEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: proxy.address,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
    TEMPORAL_TLS_SERVER_NAME: TLS_SERVER_NAME,
    TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
    ...overrides,
  };
}

function expectOneLine(error: unknown, pattern: RegExp): void {
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).toMatch(pattern);
}

describe.skipIf(!opensslAvailable)('TLS connections', () => {
  it('the client and the worker run a plan over mutual TLS configured by TEMPORAL_TLS_* variables', async () => {
    const before = proxy.accepted;
    const ctx = await createTestContext(tlsEnv());
    try {
      expect(ctx.config.temporalConnection.tls).toMatchObject({ serverNameOverride: TLS_SERVER_NAME, clientCertPair: expect.anything() });
      const record = await storePlan(ctx.db, { intent: uid('tls'), nodes: [{ id: 'a', op: 'add', params: { a: 2, b: 3 } }] });
      const { status } = await ctx.withWorker(async () => settle(await startPlanRun({ client: ctx.client, taskQueue: ctx.taskQueue, record })));
      expect(status.state).toBe('succeeded');
      expect(status.nodes[0]?.output).toEqual({ sum: 5 });
      expect(proxy.accepted).toBeGreaterThanOrEqual(before + 2);
    } finally {
      await ctx.close();
    }
  });

  it('a profile in Temporal\'s TOML file configures the same connection', async () => {
    const file = join(certs.dir, 'temporal.toml');
    writeFileSync(
      file,
      [
        '[profile.secure]',
        `address = "${proxy.address}"`,
        'namespace = "default"',
        '[profile.secure.tls]',
        `server_ca_cert_path = "${certs.caCert}"`,
        `server_name = "${TLS_SERVER_NAME}"`,
        `client_cert_path = "${certs.clientCert}"`,
        `client_key_path = "${certs.clientKey}"`,
      ].join('\n'),
    );
    const config = loadConfig({ DATABASE_URL: inject('databaseUrl'), TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'secure' });
    expect(config.TEMPORAL_ADDRESS).toBe(proxy.address);
    const temporal = await connectTemporal(config);
    expect((await temporal.connection.workflowService.getSystemInfo({})).serverVersion).toBeTruthy();
    await temporal.close();
    await (await connectWorker(config)).close();
    // The environment overrides the profile, as in Temporal's own tools.
    expect(loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'secure', TEMPORAL_ADDRESS: 'elsewhere:7233' }).TEMPORAL_ADDRESS).toBe('elsewhere:7233');
    expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'missing' })).toThrow(/TEMPORAL_PROFILE=missing.*not found/);
  });
});

describe.skipIf(!opensslAvailable)('a wrong certificate is one clear line', () => {
  const cases: Array<[string, () => Record<string, string>]> = [
    ['a CA that did not sign the server certificate', () => tlsEnv({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.otherCaCert })],
    ['a server name the certificate does not carry', () => tlsEnv({ TEMPORAL_TLS_SERVER_NAME: 'other.test' })],
  ];
  it.each(cases)('client and worker: %s', async (_name, env) => {
    const config = loadConfig(env());
    expectOneLine(await connectTemporal(config, { connectTimeoutMs: 3_000 }).catch((err: unknown) => err), /^TLS handshake with Temporal at TEMPORAL_ADDRESS=.* failed \(check TEMPORAL_TLS_SERVER_CA_CERT_PATH/);
    expectOneLine(await connectWorker(config).catch((err: unknown) => err), /TLS handshake with Temporal at TEMPORAL_ADDRESS=.* failed/);
  });

  it('no client certificate where the server requires one', async () => {
    const config = loadConfig(tlsEnv({ TEMPORAL_TLS_CLIENT_CERT_PATH: '', TEMPORAL_TLS_CLIENT_KEY_PATH: '' }));
    expect(config.temporalConnection.tls).toMatchObject({ clientCertPair: undefined });
    const error = await connectTemporal(config, { connectTimeoutMs: 3_000 }).then((temporal) => temporal.close(), (err: unknown) => err);
    expectOneLine(error, /TEMPORAL_ADDRESS=.*(TLS|certificate)/);
  });

  it('a certificate file that does not exist stops start-up naming the settings', () => {
    expect(() => loadConfig(tlsEnv({ TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem' }))).toThrow(ConfigError);
    expect(() => loadConfig(tlsEnv({ TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem' }))).toThrow(/TEMPORAL_TLS_\*.*\/nonexistent\/client\.pem/);
  });

  it('plangraph worker with the wrong CA exits with one line and no stack trace', async () => {
    // Asynchronously: the proxy runs in this process and must keep answering.
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker'], {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, ...tlsEnv({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.otherCaCert }) },
      encoding: 'utf8',
      timeout: 60_000,
    }).then(
      () => ({ failed: false, stderr: '' }),
      (err: { stderr: string }) => ({ failed: true, stderr: err.stderr }),
    );
    expect(result.failed).toBe(true);
    const lines = result.stderr.trim().split('\n').filter((line) => line.startsWith('plangraph:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/TLS handshake with Temporal at TEMPORAL_ADDRESS=127\.0\.0\.1:\d+ failed/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
