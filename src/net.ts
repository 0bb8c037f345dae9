import { createServer } from 'node:net';

/**
 * A free TCP port on loopback, for servers started by tests, benchmarks and scripts. Taken below
 * the kernel's ephemeral range (32768 and up on Linux): the port is free when picked but bound
 * only later, and a process asking the OS for any port (port 0, as the Temporal dev server's own
 * services do) could be handed an ephemeral one in between — an API port was lost that way.
 */
export function freePort(): Promise<number> {
  return freePortInRange(20_000, 32_000);
}

/** Whether a TCP port on loopback can be listened on now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const handedOut = new Set<number>();

/**
 * A free loopback port in [from, to): for a server that stores its port where ephemeral ports
 * (usually 32768 and up) do not fit, as Temporal's cluster membership does (a SQL smallint).
 */
export async function freePortInRange(from: number, to: number): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = from + Math.floor(Math.random() * (to - from));
    // Never the same port twice in one process: two servers picked before either binds.
    if (!handedOut.has(port) && (await canListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${from}-${to}`);
}
