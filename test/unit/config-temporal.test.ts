import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_TEMPORAL_ADDRESS, loadConfig } from '../../src/config';

describe('Temporal connection settings', () => {
  it('defaults to a plain local server in the default namespace', () => {
    const config = loadConfig({});
    expect(config.TEMPORAL_ADDRESS).toBe(DEFAULT_TEMPORAL_ADDRESS);
    expect(config.TEMPORAL_NAMESPACE).toBe('default');
    expect(config.temporalConnection).toEqual({});
  });

  it('an API key (Temporal Cloud) turns TLS on with the system roots', () => {
    const config = loadConfig({ TEMPORAL_ADDRESS: 'us-east-1.aws.api.temporal.io:7233', TEMPORAL_NAMESPACE: 'prod.a1b2c', TEMPORAL_API_KEY: 'secret' });
    expect(config.TEMPORAL_NAMESPACE).toBe('prod.a1b2c');
    expect(config.temporalConnection).toEqual({ apiKey: 'secret', tls: true });
  });

  it('TEMPORAL_TLS=false turns TLS off; TEMPORAL_GRPC_META_* become headers', () => {
    expect(loadConfig({ TEMPORAL_TLS: 'false' }).temporalConnection.tls).toBe(false);
    expect(loadConfig({ TEMPORAL_GRPC_META_X_TENANT: 'acme' }).temporalConnection.metadata).toEqual({ 'x-tenant': 'acme' });
  });

  it('inline PEM data works like a path', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const tls = loadConfig({ TEMPORAL_TLS_SERVER_CA_CERT_DATA: pem, TEMPORAL_TLS_SERVER_NAME: 'x.test' }).temporalConnection.tls;
    expect(tls).toMatchObject({ serverNameOverride: 'x.test' });
    expect(Buffer.from((tls as { serverRootCACertificate: Uint8Array }).serverRootCACertificate).toString()).toBe(pem);
  });

  it('bad values are one ConfigError naming the variable', () => {
    expect(() => loadConfig({ TEMPORAL_ADDRESS: 'no-port' })).toThrow(/TEMPORAL_ADDRESS/);
    expect(() => loadConfig({ TEMPORAL_TLS: 'maybe' })).toThrow(/TEMPORAL_TLS/);
    expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: '/nonexistent/temporal.toml', TEMPORAL_PROFILE: 'x' })).toThrow(ConfigError);
    // Named on purpose, a missing file is an error even without a profile (the default file may be absent).
    expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: '/nonexistent/temporal.toml' })).toThrow(
      'invalid Temporal connection settings (TEMPORAL_CONFIG_FILE=/nonexistent/temporal.toml): no such file /nonexistent/temporal.toml',
    );
  });

  it('whole numbers only in decimal digits: a hex or exponent value is refused, not read as another number', () => {
    expect(loadConfig({ API_PORT: '9090', PLAN_PARTITION_NODES: '500' })).toMatchObject({ API_PORT: 9090, PLAN_PARTITION_NODES: 500 });
    expect(() => loadConfig({ API_PORT: '0x1F90' })).toThrow('invalid API_PORT="0x1F90": must be a whole number in decimal digits');
    expect(() => loadConfig({ API_BODY_LIMIT_BYTES: '1e6' })).toThrow(/API_BODY_LIMIT_BYTES/);
    expect(() => loadConfig({ API_PORT: '70000' })).toThrow(/API_PORT/);
  });
});
