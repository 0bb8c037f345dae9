/**
 * TLS in front of a plain Temporal dev server, for tests of TLS and mTLS clients: the dev
 * server has no TLS options, so a loopback proxy terminates TLS (HTTP/2 by ALPN, client
 * certificates required) the way an ingress does, and forwards the bytes. Certificates are made
 * by openssl at test time: a CA, a server certificate for `temporal.test`, a client certificate,
 * and an unrelated CA for the wrong-certificate cases.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';

export const TLS_SERVER_NAME = 'temporal.test';

/** Whether openssl is on the PATH to make certificates with. */
export const opensslAvailable = spawnSync('openssl', ['version']).status === 0;

export interface TestCertificates {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A CA that signed none of the above. */
  otherCaCert: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function makeCa(dir: string, name: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-keyout', `${name}.key`, '-out', `${name}.pem`]);
}

function makeLeaf(dir: string, name: string, ca: string, usage: 'serverAuth' | 'clientAuth'): void {
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`]);
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=DNS:${name === 'server' ? TLS_SERVER_NAME : name}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=${usage}\n`);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.pem`]);
}

/** Generates a fresh CA, server and client certificates, and an unrelated CA. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'plangraph-tls-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeLeaf(dir, 'server', 'ca', 'serverAuth');
  makeLeaf(dir, 'client', 'ca', 'clientAuth');
  const at = (file: string) => join(dir, file);
  return { dir, caCert: at('ca.pem'), serverCert: at('server.pem'), serverKey: at('server.key'), clientCert: at('client.pem'), clientKey: at('client.key'), otherCaCert: at('other-ca.pem') };
}

export interface TlsProxy {
  address: string;
  /** Connections that completed the TLS handshake (client certificate checked). */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a TLS-terminating proxy on a free loopback port forwarding to `target` (host:port). */
export async function startTlsProxy(target: string, certs: TestCertificates): Promise<TlsProxy> {
  const [host, port] = target.split(':');
  const open = new Set<TLSSocket>();
  let accepted = 0;
  const server = createServer(
    {
      key: readFileSync(certs.serverKey),
      cert: readFileSync(certs.serverCert),
      ca: readFileSync(certs.caCert),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      accepted += 1;
      open.add(client);
      const upstream = connect(Number(port), host);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => {
        open.delete(client);
        upstream.destroy();
      });
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    address: `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    get accepted() {
      return accepted;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
