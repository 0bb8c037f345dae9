/**
 * Why a TLS handshake with Temporal fails, in one line. gRPC reports a refused certificate only
 * as "Failed to connect before the deadline"; a plain Node TLS handshake with the same settings
 * names the cause (unknown issuer, wrong host name, missing client certificate).
 */
import { connect } from 'node:tls';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';

/** The handshake's error message, or undefined when the handshake succeeds (or times out). */
export async function tlsHandshakeProblem(address: string, tls: TLSConfig | true, timeoutMs = 3_000): Promise<string | undefined> {
  const [host, port] = address.split(':');
  const options = tls === true ? {} : tls;
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(port),
      servername: options.serverNameOverride ?? host,
      ...(options.serverRootCACertificate && { ca: Buffer.from(options.serverRootCACertificate) }),
      ...(options.clientCertPair && { cert: Buffer.from(options.clientCertPair.crt), key: Buffer.from(options.clientCertPair.key) }),
      ALPNProtocols: ['h2'],
    });
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once('error', (err) => done(err.message.replace(/\s+/g, ' ').trim()));
    // TLS 1.3 servers refuse a missing client certificate after the client's side completes, so
    // wait briefly for an alert before calling the handshake good.
    socket.once('secureConnect', () => setTimeout(() => done(socket.destroyed ? 'connection closed by the server' : undefined), 300));
    socket.once('close', () => done('connection closed by the server during the TLS handshake'));
  });
}
