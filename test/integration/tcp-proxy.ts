/**
 * A TCP proxy a test controls, to make a server (Postgres) unreachable for one process without
 * touching the server itself: `refuse()` cuts every open connection and turns new ones away,
 * `accept()` lets them through again.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Connections the proxy refused since it started. */
  readonly refused: number;
  refuse(): void;
  accept(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let accepting = true;
  let refused = 0;
  const server = createServer((client) => {
    if (!accepting) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    get refused() {
      return refused;
    },
    refuse() {
      accepting = false;
      for (const socket of open) socket.destroy();
    },
    accept() {
      accepting = true;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
