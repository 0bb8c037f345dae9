/**
 * Regenerates the committed workflow histories (test/histories/*.json and the patching fixture's
 * histories) from a live server: a throwaway Temporal dev server, a fresh Postgres database and
 * a worker, one run per scenario (scripts/histories/scenarios.ts) under a fixed workflow id.
 *
 *   npx tsx scripts/record-histories.ts            # every scenario
 *   npx tsx scripts/record-histories.ts chain      # only the named ones
 *
 * After a patched change to workflow code (docs/workflow-changes.md), first copy the scenario's
 * old file to a new name (e.g. consolidation-before-reconcile.json): old code can no longer
 * record it, and it proves the patch keeps old runs replaying. This script only writes the files
 * of the scenarios it runs; such frozen files are replayed but never rewritten.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig, type Config } from '../src/config';
import { createDb, createScratchDatabase } from '../src/db/client';
import { loadOpRegistry } from '../src/ops/registry';
import { writeHistoryFile } from '../src/replay/history-file';
import { findTemporalCli } from '../src/temporal/cli-binary';
import { startDevServerOnFreePort } from '../src/temporal/dev-server';
import { createWorker } from '../src/temporal/worker';
import { createGreetingActivities } from '../test/fixtures/workflows/activities';
import { HISTORY_TASK_QUEUE } from './histories/scenario-kinds';
import { SCENARIOS } from './histories/scenarios';

const ROOT = resolve(import.meta.dirname, '..');
const HISTORIES_DIR = join(ROOT, 'test/histories');
const FIXTURE_DIR = join(ROOT, 'test/fixtures/workflows');

/** The patching fixture: the same greeting workflow recorded on v1 and on the patched v2. */
const FIXTURE_VERSIONS = ['greeting-v1', 'greeting-v2-patched'] as const;

async function recordFixture(client: Client, connection: NativeConnection, version: (typeof FIXTURE_VERSIONS)[number]): Promise<string> {
  const taskQueue = `histories-${version}`;
  const worker = await Worker.create({ connection, taskQueue, workflowsPath: join(FIXTURE_DIR, `${version}.ts`), activities: createGreetingActivities() });
  const handle = await worker.runUntil(async () => {
    const started = await client.workflow.start('greetingWorkflow', { taskQueue, workflowId: `history-${version}`, args: ['ada'] });
    await started.result();
    return started;
  });
  const file = join(FIXTURE_DIR, `${version}.history.json`);
  await writeHistoryFile(file, await handle.fetchHistory());
  return file;
}

async function main(only: string[]): Promise<void> {
  const scenarios = only.length > 0 ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  const unknown = only.filter((name) => !SCENARIOS.some((s) => s.name === name) && name !== 'fixtures');
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}, fixtures`);
  Runtime.install({ logger: new DefaultLogger('WARN') });

  const base = loadConfig();
  const cliPath = findTemporalCli(base.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('no Temporal CLI: run `node scripts/setup.mjs` or set TEMPORAL_CLI_PATH');
  const database = await createScratchDatabase(base.DATABASE_URL, 'plangraph_histories');
  const server = await startDevServerOnFreePort({ cliPath });
  const config: Config = loadConfig({
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_TASK_QUEUE: HISTORY_TASK_QUEUE,
    OPS_MODULES: join(ROOT, 'test/fixtures/test-ops.ts'),
  });
  const db = createDb(config.DATABASE_URL);
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  try {
    mkdirSync(HISTORIES_DIR, { recursive: true });
    if (scenarios.length > 0) {
      const worker = await createWorker({ config, db, registry: await loadOpRegistry(config), connection: nativeConnection });
      await worker.runUntil(async () => {
        for (const scenario of scenarios) {
          const handle = await scenario.run({ client, db }, `history-${scenario.name}`);
          const history = await handle.fetchHistory();
          const file = join(HISTORIES_DIR, `${scenario.name}.json`);
          await writeHistoryFile(file, history);
          console.log(`recorded ${scenario.name}: ${history.events?.length ?? 0} events -> ${file}`);
          if (scenario.firstRunToo) {
            const firstRunId = (handle as WorkflowHandle & { firstExecutionRunId: string }).firstExecutionRunId;
            const first = await client.workflow.getHandle(handle.workflowId, firstRunId).fetchHistory();
            await writeHistoryFile(join(HISTORIES_DIR, `${scenario.name}-first.json`), first);
            console.log(`recorded ${scenario.name}-first: ${first.events?.length ?? 0} events`);
          }
        }
      });
    }
    if (only.length === 0 || only.includes('fixtures')) {
      for (const version of FIXTURE_VERSIONS) console.log(`recorded ${version} -> ${await recordFixture(client, nativeConnection, version)}`);
    }
  } finally {
    await connection.close();
    await nativeConnection.close();
    await db.$client.end();
    await server.stop();
    await database.drop();
  }
}

await main(process.argv.slice(2));
