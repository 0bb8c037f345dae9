import { loadConfig } from '../src/config';
import { startBenchEnv } from './lib/environment';
import { chainShape, storePlan, timePlanRun, timeWorkflow } from './lib/plans';
const env = await startBenchEnv(loadConfig(), () => {});
const ts = (e: any) => Number(e.eventTime!.seconds) * 1000 + (e.eventTime!.nanos ?? 0) / 1e6;
async function gaps(handle: any) {
  const h = await handle.fetchHistory();
  const g: Record<string, number[]> = {};
  let prev = 0;
  for (const e of h.events ?? []) {
    const t = ts(e);
    const type = Object.keys(e).find((key) => key.endsWith('EventAttributes') && (e as any)[key])!.replace('EventAttributes', '');
    (g[type] ??= []).push(prev ? t - prev : 0);
    prev = t;
  }
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0).toFixed(0);
  return Object.entries(g).map(([k, v]) => `${k.replace('workflow', 'wf').replace('activity', 'act')}:${sum(v)}/${v.length}`).join(' ');
}
try {
  const record = await storePlan(env, chainShape(50), 'probe');
  await env.withWorker(async (tq) => {
    for (let i = 0; i < 4; i++) {
      const a = await timePlanRun(env, tq, record);
      const b = await timeWorkflow(env, tq, 'sequentialOpsBaselineWorkflow', [{ op: 'noop', count: 50 }]);
      console.log('exec', a.ms, await gaps(a.handle));
      console.log('base', b.ms, await gaps(b.handle));
    }
  });
} finally { await env.close(); }
