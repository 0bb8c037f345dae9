import { spawn } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, bundleWorkflowCode, Runtime, DefaultLogger } from '@temporalio/worker';
import { createOpActivities, createOpRegistry } from '../activities/op-registry';
import { builtinOps } from '../activities/ops/builtins';
Runtime.install({ logger: new DefaultLogger('ERROR') });
const port = 17000 + Math.floor(Math.random() * 1000);
const extra = process.argv.slice(2);
const child = spawn('.tools/bin/temporal', ['server', 'start-dev', '--headless', '--port', String(port), '--log-level', 'error', ...extra], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 2500));
const address = `127.0.0.1:${port}`;
const connection = await Connection.connect({ address });
const client = new Client({ connection });
const bundle = await bundleWorkflowCode({ workflowsPath: new URL('./workflows/index.ts', import.meta.url).pathname, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
const worker = await Worker.create({ connection: await NativeConnection.connect({ address }), taskQueue: 'p', workflowBundle: bundle, activities: { noop: async () => { times.push(Date.now()); return { output: null, attempt: 1 }; } } });
const times: number[] = [];
await worker.runUntil(async () => {
  if (process.env.PRE_SLEEP) await new Promise((r) => setTimeout(r, Number(process.env.PRE_SLEEP)));
  for (let k = 0; k < 4; k++) {
    const h = await client.workflow.start('sequentialOpsBaselineWorkflow', { taskQueue: 'p', workflowId: 'w' + k, args: [{ op: 'noop', count: 20 }] });
    await h.result();
    const d = await h.describe();
    const hist = await h.fetchHistory();
    const gaps: Record<string, number[]> = {};
    let prev = 0;
    for (const e of hist.events ?? []) {
      const t = Number(e.eventTime!.seconds) * 1000 + (e.eventTime!.nanos ?? 0) / 1e6;
      const type = Object.keys(e).find((key) => key.endsWith('EventAttributes') && (e as any)[key])!.replace('EventAttributes', '');
      (gaps[type] ??= []).push(prev ? t - prev : 0);
      prev = t;
    }
    const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!.toFixed(1);
    const sched = (hist.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).map((e) => Number(e.eventTime!.seconds) * 1000 + (e.eventTime!.nanos ?? 0) / 1e6);
    const started = (hist.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => Number(e.eventTime!.seconds) * 1000 + (e.eventTime!.nanos ?? 0) / 1e6);
    const mine = times.splice(0);
    console.log('sched->started', started.map((t, i) => (t - sched[i]!).toFixed(0)).join(' '));
    console.log('started->fn   ', mine.map((t, i) => (t - started[i]!).toFixed(0)).join(' '));
    if (process.env.SEQ) console.log((gaps['activityTaskStarted'] ?? []).map((x) => x.toFixed(0)).join(' '));
    console.log('total', d.closeTime!.getTime() - d.startTime.getTime(), Object.entries(gaps).map(([k, v]) => `${k}:${med(v)}`).join(' '));
  }
});
child.kill();
