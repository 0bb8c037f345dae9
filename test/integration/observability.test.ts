/**
 * Observability end to end with real processes: an API and a worker with OTEL_EXPORTER_OTLP_ENDPOINT
 * export spans to an OTLP/HTTP receiver in this test, and one trace links the HTTP request, the
 * workflow start, the workflow run and every node's activity. The API's /metrics and the worker's
 * metrics endpoint then show plangraph's own series with samples. The traced workflow bundle also
 * replays every committed history: the interceptors add no workflow commands.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/net';
import { OTEL_WORKFLOW_INTERCEPTORS, WORKFLOWS_PATH } from '../../src/package-files';
import { REPLAY_OUTCOME_SINKS } from '../../src/runs/outcome-sink';
import { createApiKeyStore } from '../../src/store/api-keys';
import { committedHistories } from './committed-histories';
import { until } from './executor-helpers';
import { spawnReady, type ChildHandle } from './fault-processes';
import { createTestContext, TEST_OPS_MODULE, uid, type TestContext } from './harness';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver';
import { storePlan } from './plans';

let ctx: TestContext;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let tracedBundle: string;
let api: string;
let workerMetrics: string;
const processes: ChildHandle[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  receiver = await startOtlpReceiver();
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: [OTEL_WORKFLOW_INTERCEPTORS], logger: quiet });
  tracedBundle = join(mkdtempSync(join(tmpdir(), 'plangraph-traced-')), 'workflows.js');
  writeFileSync(tracedBundle, code);
  const env = {
    DATABASE_URL: ctx.config.DATABASE_URL,
    TEMPORAL_ADDRESS: ctx.config.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: ctx.taskQueue,
    OPS_MODULES: TEST_OPS_MODULE,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  };
  workerMetrics = `127.0.0.1:${await freePort()}`;
  const apiPort = await freePort();
  api = `http://127.0.0.1:${apiPort}`;
  processes.push(
    ...(await Promise.all([
      spawnReady(['test/fixtures/worker-process.ts', tracedBundle], { ...env, WORKER_METRICS_ADDRESS: workerMetrics }, /worker-ready/),
      spawnReady(['src/cli/main.ts', 'api'], { ...env, API_HOST: '127.0.0.1', API_PORT: String(apiPort) }, /API: http/),
    ])),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGKILL')));
  await receiver?.close();
  await ctx?.close();
});

const post = (path: string, body: unknown, key?: string) =>
  fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(body) });

/** The spans of one trace once every expected name has arrived (spans are exported in batches). */
async function traceWith(traceId: () => string | undefined, names: string[]): Promise<ReceivedSpan[]> {
  return until(
    async () => receiver.spans.filter((s) => s.traceId === traceId()),
    (spans) => names.every((name) => spans.filter((s) => s.name === name).length >= names.filter((n) => n === name).length),
    `spans ${names.join(', ')}`,
  );
}

describe('traces over OTLP', () => {
  it('links the HTTP request, the workflow and each node activity in one trace', async () => {
    const record = await storePlan(ctx.db, {
      intent: uid('traced'),
      sensitivity: 'public',
      nodes: [
        { id: 'first', op: 'add', params: { a: 1, b: 2 } },
        { id: 'second', op: 'add', params: { a: 3, b: 4 } },
      ],
      edges: [{ from: 'first', to: 'second', kind: 'control' }],
    });
    const response = await post('/v1/intents', { task_descriptor: 'traced run', plan_id: record.id, wait: true });
    expect(response.status, await response.clone().text()).toBe(202);
    const { workflow_id: workflowId } = (await response.json()) as { workflow_id: string };

    const requestSpan = () => receiver.spans.find((s) => s.name === 'POST /v1/intents' && s.attributes['http.response.status_code'] === 202);
    const spans = await traceWith(() => requestSpan()?.traceId, [
      'POST /v1/intents',
      'StartWorkflow:planExecutorWorkflow',
      'RunWorkflow:planExecutorWorkflow',
      'StartActivity:add',
      'StartActivity:add',
      'RunActivity:add',
      'RunActivity:add',
    ]);
    const one = (name: string) => spans.find((s) => s.name === name)!;
    const http = one('POST /v1/intents');
    expect(http).toMatchObject({ service: 'plangraph-api', kind: 2 /* SERVER */ });
    expect(http.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/intents', 'url.path': '/v1/intents' });
    // The parent chain: request → start → run → each activity's start → its execution.
    const start = one('StartWorkflow:planExecutorWorkflow');
    expect(start).toMatchObject({ service: 'plangraph-api', parentSpanId: http.spanId });
    expect(start.attributes.temporalWorkflowId).toBe(workflowId);
    const run = one('RunWorkflow:planExecutorWorkflow');
    expect(run).toMatchObject({ service: 'plangraph-worker', parentSpanId: start.spanId });
    const starts = spans.filter((s) => s.name === 'StartActivity:add');
    expect(starts.map((s) => s.parentSpanId)).toEqual([run.spanId, run.spanId]);
    const executions = spans.filter((s) => s.name === 'RunActivity:add');
    expect(executions.map((s) => s.parentSpanId).sort()).toEqual(starts.map((s) => s.spanId).sort());
    for (const execution of executions) {
      expect(execution).toMatchObject({ service: 'plangraph-worker' });
      expect(execution.attributes).toMatchObject({ temporalWorkflowId: workflowId });
    }
    expect(new Set(executions.map((s) => s.attributes.temporalActivityId)).size).toBe(2);
  });

  it("continues a caller's trace given in a traceparent header", async () => {
    const traceId = 'a'.repeat(31) + '1';
    const response = await fetch(`${api}/healthz`, { headers: { traceparent: `00-${traceId}-${'b'.repeat(16)}-01` } });
    expect(response.status).toBe(200);
    const [span] = await traceWith(() => traceId, ['GET /healthz']);
    expect(span).toMatchObject({ parentSpanId: 'b'.repeat(16), attributes: expect.objectContaining({ 'http.response.status_code': 200 }) });
  });
});

/** The value of a sample line `name{…labels…} value` whose labels include `match`, summed over matches. */
function sampleSum(text: string, name: string, match: Record<string, string> = {}): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(match).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe("plangraph's own metrics", () => {
  it('after a run, a retrieval, an intent chosen by selection and a consolidation pass, every series has samples', async () => {
    const intent = uid('metrics plan');
    const record = await storePlan(ctx.db, { intent, sensitivity: 'public', nodes: [{ id: 'a', op: 'add', params: { a: 1, b: 1 } }] });
    expect((await post('/v1/intents', { task_descriptor: 'metrics run', plan_id: record.id, wait: true })).status).toBe(202);
    expect((await post('/v1/retrieve', { task_descriptor: intent, trust: { max_sensitivity: 'public', authenticated: false } })).status).toBe(200);
    // Chosen by selection: whichever way it decides (run, ask for more), the decision is counted.
    expect([200, 202, 422]).toContain((await post('/v1/intents', { task_descriptor: intent })).status);
    const pass = await post('/v1/consolidation/run', {}, (await createApiKeyStore(ctx.db).create(uid('operator'), 'low')).key);
    expect(pass.status, await pass.clone().text()).toBe(200);

    const apiText = await (await fetch(`${api}/metrics`)).text();
    expect(sampleSum(apiText, 'plangraph_runs_total', { status: 'succeeded' })).toBeGreaterThan(0);
    expect(sampleSum(apiText, 'plangraph_retrieval_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(sampleSum(apiText, 'plangraph_retrieval_duration_seconds_sum')).toBeGreaterThan(0);
    expect(apiText).toMatch(/^# TYPE plangraph_retrieval_duration_seconds histogram$/m);
    expect(sampleSum(apiText, 'plangraph_selection_decisions_total')).toBe(1);
    expect(apiText).toMatch(/^plangraph_selection_decisions_total\{decision="(auto_run|refused|needs_more|none)"\} 1$/m);
    expect(sampleSum(apiText, 'plangraph_consolidation_passes_total')).toBeGreaterThan(0);

    const workerText = await until(
      async () => (await fetch(`http://${workerMetrics}/metrics`)).text(),
      (text) => sampleSum(text, 'plangraph_consolidation_pass_duration_milliseconds_count') > 0,
      'the pass duration on the worker endpoint',
    );
    expect(sampleSum(workerText, 'plangraph_node_duration_milliseconds_count', { op: 'add', outcome: 'succeeded' })).toBeGreaterThanOrEqual(3);
    expect(workerText).toMatch(/^plangraph_node_duration_milliseconds_bucket\{[^}]*op="add"/m);
    expect(sampleSum(workerText, 'plangraph_consolidation_pass_duration_milliseconds_sum')).toBeGreaterThan(0);
  });
});

describe('node duration outcome', () => {
  it('counts an attempt past its start-to-close timeout as timed out, not as the op ended it', async () => {
    const record = await storePlan(ctx.db, {
      intent: uid('timeout plan'),
      sensitivity: 'public',
      nodes: [{ id: 'slow', op: 'timed', params: { ms: 3000 }, policy: { start_to_close_timeout: '1s', retry: { maximum_attempts: 1 } } }],
    });
    const submitted = await post('/v1/intents', { task_descriptor: 'timeout run', plan_id: record.id, wait: true });
    expect(submitted.status).toBe(202);
    expect(((await submitted.json()) as { run: { state: string } }).run.state).toBe('failed');
    const sample = (text: string, outcome: string) => sampleSum(text, 'plangraph_node_duration_milliseconds_count', { op: 'timed', outcome });
    const workerText = await until(
      async () => (await fetch(`http://${workerMetrics}/metrics`)).text(),
      (text) => sample(text, 'timed_out') > 0,
      'a timed-out sample of the slow node',
    );
    expect(sample(workerText, 'failed') + sample(workerText, 'succeeded')).toBe(0);
  });
});

describe('the traced workflow bundle', () => {
  it('replays every committed history', async () => {
    const histories = committedHistories();
    const exporter = makeWorkflowExporter(new SimpleSpanProcessor(new InMemorySpanExporter()), new Resource({}));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: tracedBundle }, sinks: { exporter, ...REPLAY_OUTCOME_SINKS } }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(histories.length).toBeGreaterThan(10);
  });
});

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };
