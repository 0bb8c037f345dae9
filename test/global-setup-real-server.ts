/**
 * The `real-server` project's run: like test/global-setup.ts, but against Temporal's own server
 * (built by `PLANGRAPH_TEMPORAL_SERVER=1 node scripts/setup.mjs`) persisting to fresh databases
 * in the same Postgres, dropped afterwards.
 */
import type { TestProject } from 'vitest/node';
import { freePort } from '../src/net';
import { findRealServer, startRealServer } from '../src/temporal/real-server';
import { setupWith } from './global-setup';

export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return setupWith(project, async (databaseUrl) => {
    const files = findRealServer();
    if (!files) throw new Error('no Temporal server build: run PLANGRAPH_TEMPORAL_SERVER=1 node scripts/setup.mjs');
    const server = await startRealServer({ files, databaseUrl, port: await freePort() });
    return { address: server.address, stop: () => server.stop() };
  });
}
