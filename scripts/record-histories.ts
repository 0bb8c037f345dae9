/**
 * Regenerates the committed workflow histories (test/histories/*.json and the patching fixture's
 * histories) from a live server: a throwaway Temporal dev server, a fresh Postgres database and
 * a worker, one run per scenario under a fixed workflow id.
 *
 *   npx tsx scripts/record-histories.ts            # every scenario
 *   npx tsx scripts/record-histories.ts chain      # only the named ones
 *
 * After a patched change to workflow code (docs/workflow-changes.md), first copy the scenario's
 * old file to a new name (e.g. consolidation-before-reconcile.json): old code can no longer
 * record it, and it proves the patch keeps old runs replaying. This script only writes the files
 * of the scenarios it runs; such frozen files are replayed but never rewritten.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig, type Config } from '../src/config';
import { createDb, createScratchDatabase, type Db } from '../src/db/client';
import { freePort } from '../src/net';
import { generateEpisodes } from '../src/consolidation/generate-episodes';
import { planGraphPayloadSchema, type PlanGraphPayloadInput } from '../src/domain/records';
import { statusQuery } from '../src/domain/run-state';
import { writeHistoryFile } from '../src/replay/history-file';
import { startPlanRun } from '../src/runs/start-run';
import { approvalUpdate } from '../src/domain/approvals';
import { finalStatus } from '../src/runs/follow-run';
import { splitForResume } from '../src/runs/resume-plan';
import { createEpisodeStore } from '../src/store/episodes';
import { createRecordStore } from '../src/store/records';
import { createRunStore } from '../src/store/plan-runs';
import { findTemporalCli } from '../src/temporal/cli-binary';
import { startDevServer } from '../src/temporal/dev-server';
import { loadOpRegistry } from '../src/ops/registry';
import { createWorker } from '../src/temporal/worker';
import { createGreetingActivities } from '../test/fixtures/workflows/activities';

const ROOT = resolve(import.meta.dirname, '..');
const HISTORIES_DIR = join(ROOT, 'test/histories');
const FIXTURE_DIR = join(ROOT, 'test/fixtures/workflows');
const TASK_QUEUE = 'plangraph-histories';

interface Env {
  client: Client;
  db: Db;
}

type PlanSpec = Pick<PlanGraphPayloadInput, 'nodes' | 'edges' | 'constraints'> & { intent: string };

interface Scenario {
  name: string;
  /** Also record the first run of a run that continued as new, as `<name>-first.json`. */
  firstRunToo?: boolean;
  /** Starts the run under `workflowId` and waits until it is closed. */
  run(env: Env, workflowId: string): Promise<WorkflowHandle>;
}

/** A plan-run scenario: store the plan, start it, optionally act on it, wait for it to close. */
function planScenario(name: string, plan: PlanSpec, act?: (handle: WorkflowHandle) => Promise<void>, partitionNodes?: number): Scenario {
  return {
    name,
    firstRunToo: partitionNodes !== undefined,
    async run({ client, db }, workflowId) {
      const payload = planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: `history-${name}`, inputs_schema: {}, ...plan });
      const record = await createRecordStore(db).create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
      const handle = await startPlanRun({ client, taskQueue: TASK_QUEUE, record, workflowId, partitionNodes });
      await act?.(handle);
      await handle.result().catch(() => undefined); // failed and cancelled runs are scenarios too
      return handle;
    },
  };
}

/** Polls the run's status query until `node` is running (cancelling before then records nothing). */
async function untilNodeRunning(handle: WorkflowHandle, node: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await handle.query(statusQuery);
    if (status.nodes.some((n) => n.id === node && n.state === 'running')) return;
    if (Date.now() > deadline) throw new Error(`node ${node} did not start within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls the run's status query until `id` (a node or the run gate) waits for a decision, then decides it. */
async function decideWhenWaiting(handle: WorkflowHandle, id: string, decision: 'approve' | 'reject'): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await handle.query(statusQuery)).waiting_for?.some((w) => w.node_id === id)) {
    if (Date.now() > deadline) throw new Error(`${id} did not wait within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await handle.executeUpdate(approvalUpdate, { args: [{ node_id: id, decision, by: 'history-recorder', comment: 'recorded' }] });
}

/** A run that fails (its gate's file is missing), then the resumed run, recorded, after the file is created. */
function resumeScenario(name: string): Scenario {
  return {
    name,
    async run({ client, db }, workflowId) {
      const dir = mkdtempSync(join(tmpdir(), 'plangraph-history-resume-'));
      const marker = join(dir, 'ready');
      const log = join(dir, 'log');
      const payload = planGraphPayloadSchema.parse({
        kind: 'plan_graph',
        plan_id: `history-${name}`,
        intent: 'history: resumed run',
        constraints: { failure_policy: 'continue' },
        nodes: [echo('load', { n: 1 }), { id: 'gate', op: 'until_file', params: { file: marker, log } }, echo('after'), echo('side')],
        edges: [
          { from: 'load', to: 'gate', kind: 'data' },
          { from: 'gate', to: 'after', kind: 'data' },
          { from: 'load', to: 'side', kind: 'data' },
        ],
      });
      const record = await createRecordStore(db).create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
      const first = await startPlanRun({ client, taskQueue: TASK_QUEUE, record, workflowId: `${workflowId}-failed` });
      const old = await finalStatus(first);
      writeFileSync(marker, 'ok');
      const { reused } = splitForResume(payload, old.nodes);
      const handle = await startPlanRun({ client, taskQueue: TASK_QUEUE, record, workflowId, resume: { workflow_id: first.workflowId, run_id: first.firstExecutionRunId, reused } });
      await handle.result();
      return handle;
    },
  };
}

/** A run whose starter opened it (StartRunOptions.opener): the run begins without the beginRun local activity. */
function openedByStarterScenario(name: string): Scenario {
  return {
    name,
    async run({ client, db }, workflowId) {
      const payload = planGraphPayloadSchema.parse({
        kind: 'plan_graph',
        plan_id: `history-${name}`,
        intent: 'history: run opened by its starter',
        nodes: [echo('load', { n: 1 }), { id: 'call', op: 'noop' }, echo('after')],
        edges: [
          { from: 'load', to: 'call', kind: 'control' },
          { from: 'call', to: 'after', kind: 'control' },
        ],
      });
      const record = await createRecordStore(db).create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
      const opener = { runs: createRunStore(db), registry: await loadOpRegistry(loadConfig()) };
      const handle = await startPlanRun({ client, taskQueue: TASK_QUEUE, record, workflowId, opener });
      await handle.result();
      return handle;
    },
  };
}

const echo = (id: string, params: Record<string, unknown> = {}, guards?: Record<string, unknown>) => ({ id, op: 'echo', params, ...(guards ? { guards } : {}) });

const SCENARIOS: Scenario[] = [
  planScenario('chain', {
    intent: 'history: chain',
    nodes: [echo('fetch', { url: 'https://example.test' }), echo('parse'), echo('store')],
    edges: [
      { from: 'fetch', to: 'parse', kind: 'data' },
      { from: 'parse', to: 'store', kind: 'data' },
    ],
  }),
  planScenario('fan-out', {
    intent: 'history: fan-out and join',
    nodes: [echo('split'), echo('part_a'), echo('part_b'), echo('part_c'), echo('join')],
    edges: ['part_a', 'part_b', 'part_c'].flatMap((part) => [
      { from: 'split', to: part, kind: 'data' as const },
      { from: part, to: 'join', kind: 'data' as const },
    ]),
  }),
  planScenario('guards-skips', {
    intent: 'history: guards with skips',
    nodes: [
      echo('check', { urgent: false }),
      echo('page_oncall', {}, { eq: [{ ref: 'nodes.check.output.urgent' }, true] }),
      echo('file_ticket', {}, { eq: [{ ref: 'nodes.check.output.urgent' }, false] }),
      echo('confirm_page'),
    ],
    edges: [
      { from: 'check', to: 'page_oncall', kind: 'data' },
      { from: 'check', to: 'file_ticket', kind: 'data' },
      { from: 'page_oncall', to: 'confirm_page', kind: 'data' },
    ],
  }),
  planScenario('fail-fast', {
    intent: 'history: fail_fast failure',
    constraints: { failure_policy: 'fail_fast' },
    nodes: [
      { id: 'boom', op: 'fail', params: { type: 'upstream_down', message: 'upstream is down' } },
      { id: 'slow', op: 'timed', params: { ms: 3000 } },
      echo('after_boom'),
    ],
    edges: [{ from: 'boom', to: 'after_boom', kind: 'data' }],
  }),
  planScenario('retries', {
    intent: 'history: retried node',
    nodes: [
      { id: 'flaky', op: 'flaky', params: { fail_times: 2 }, policy: { retry: { maximum_attempts: 3, initial_interval: '100ms' } } },
      echo('after'),
    ],
    edges: [{ from: 'flaky', to: 'after', kind: 'data' }],
  }),
  planScenario('local-nodes', {
    intent: 'history: local nodes beside activities',
    nodes: [
      echo('load', { user: { name: 'ada' } }),
      { id: 'pick', op: 'json_pick', params: { from: '{{nodes.load.output.user}}', fields: { who: 'name' } } },
      { id: 'flaky_local', op: 'flaky', params: { fail_times: 1 }, policy: { execution: 'local', retry: { maximum_attempts: 3, initial_interval: '100ms' } } },
      { id: 'remote', op: 'echo', params: {}, policy: { execution: 'activity' } },
      { id: 'merge', op: 'json_merge', params: {} },
    ],
    edges: [
      { from: 'load', to: 'pick', kind: 'data' },
      { from: 'pick', to: 'merge', kind: 'data' },
      { from: 'flaky_local', to: 'merge', kind: 'data' },
      { from: 'remote', to: 'merge', kind: 'data' },
    ],
  }),
  planScenario(
    'cancellation',
    {
      intent: 'history: cancelled run',
      nodes: [{ id: 'long', op: 'timed', params: { ms: 60_000 }, policy: { heartbeat_timeout: '5s' } }, echo('never')],
      edges: [{ from: 'long', to: 'never', kind: 'data' }],
    },
    async (handle) => {
      await untilNodeRunning(handle, 'long');
      await handle.cancel();
    },
  ),
  planScenario(
    'approvals',
    {
      intent: 'history: approvals and the run gate',
      constraints: { requires_approval: true, approval_prompt: 'Start?' },
      nodes: [
        echo('build'),
        { id: 'ok', op: 'approval', params: { prompt: 'Deploy?' } },
        echo('deploy'),
        { id: 'late', op: 'approval', params: { prompt: 'Also notify?', timeout: '300ms' }, policy: { continue_on_error: true } },
      ],
      edges: [
        { from: 'build', to: 'ok', kind: 'control' },
        { from: 'ok', to: 'deploy', kind: 'data' },
      ],
    },
    async (handle) => {
      await decideWhenWaiting(handle, '$run', 'approve');
      await decideWhenWaiting(handle, 'ok', 'approve');
    },
  ),
  planScenario(
    'approval-rejected',
    {
      intent: 'history: a rejected run gate',
      constraints: { requires_approval: true },
      nodes: [echo('first'), { id: 'ok', op: 'approval', params: { prompt: 'Never asked' } }],
      edges: [{ from: 'first', to: 'ok', kind: 'data' }],
    },
    (handle) => decideWhenWaiting(handle, '$run', 'reject'),
  ),
  resumeScenario('resumed'),
  openedByStarterScenario('opened-by-starter'),
  planScenario('map', {
    intent: 'history: map node, one item failing, continue policy',
    constraints: { failure_policy: 'continue', max_parallelism: 2 },
    nodes: [
      echo('list', { items: [1, 2, 'three', 4] }),
      { id: 'sum', op: 'add', for_each: '{{nodes.list.output.items}}', params: { a: '{{item}}', b: '{{index}}' } },
      { id: 'each', op: 'echo', for_each: '{{nodes.list.output.items}}', params: { v: '{{item}}' } },
      echo('after', { sums: '{{nodes.each.output}}' }),
    ],
    edges: [
      { from: 'list', to: 'sum', kind: 'data' },
      { from: 'list', to: 'each', kind: 'data' },
      { from: 'each', to: 'after', kind: 'data' },
    ],
  }),
  // 1,001 items: two chunk child workflows, the second of one item (recorded next as map-chunk).
  planScenario('map-chunks', {
    intent: 'history: map node in chunks',
    nodes: [{ id: 'each', op: 'echo', for_each: '{{nodes.list.output.items}}', params: { i: '{{index}}' } }, echo('list', { items: Array.from({ length: 1001 }, (_, i) => i) })],
    edges: [{ from: 'list', to: 'each', kind: 'data' }],
  }),
  {
    name: 'map-chunk',
    async run({ client }) {
      return client.workflow.getHandle('history-map-chunks/each[1000-1000]');
    },
  },
  {
    name: 'sub-plan',
    async run({ client, db }, workflowId) {
      const records = createRecordStore(db);
      const childPayload = planGraphPayloadSchema.parse({
        kind: 'plan_graph',
        plan_id: 'history-sub-plan-child',
        intent: 'history: sub-plan child',
        inputs_schema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        nodes: [{ id: 'inc', op: 'add', params: { a: '{{inputs.x}}', b: 1 } }],
      });
      const child = await records.create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload: childPayload });
      return planScenario('sub-plan', {
        intent: 'history: sub-plan',
        nodes: [
          echo('src', { v: 41 }),
          { id: 'sub', op: 'plan', params: { plan_id: child.id, inputs: { x: '{{nodes.src.output.v}}' } } },
          echo('after', { got: '{{nodes.sub.output.outputs.inc.sum}}' }),
        ],
        edges: [
          { from: 'src', to: 'sub', kind: 'data' },
          { from: 'sub', to: 'after', kind: 'data' },
        ],
      }).run({ client, db }, workflowId);
    },
  },
  // A plan run in partitions of 2 nodes: three runs joined by continue-as-new; the first and last are recorded.
  planScenario(
    'partitioned',
    {
      intent: 'history: partitioned run',
      nodes: [
        echo('p1', { v: 1 }),
        { id: 'p2', op: 'echo', params: { v: '{{nodes.p1.output.v}}' }, policy: { execution: 'activity' } },
        echo('p3', { v: '{{nodes.p2.output.v}}' }),
        { id: 'p4', op: 'echo', params: { v: '{{nodes.p3.output.v}}' }, policy: { execution: 'activity' } },
        echo('p5', { v: '{{nodes.p4.output.v}}' }),
      ],
      edges: ['p1', 'p2', 'p3', 'p4'].map((from, i) => ({ from, to: `p${i + 2}`, kind: 'data' as const })),
    },
    undefined,
    2,
  ),
  {
    name: 'consolidation',
    async run({ client, db }, workflowId) {
      await createEpisodeStore(db).insertMany(generateEpisodes({ count: 5, seed: 7, prefix: 'history' }));
      const handle = await client.workflow.start('consolidationWorkflow', { taskQueue: TASK_QUEUE, workflowId, args: [{ page_size: 2 }] });
      await handle.result();
      return handle;
    },
  },
];

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
  const server = await startDevServer({ cliPath, port: await freePort() });
  const config: Config = loadConfig({
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
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
