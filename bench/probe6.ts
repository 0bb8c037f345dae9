import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config';
import { startBenchEnv, uid } from './lib/environment';
import { THROUGHPUT_WORKER_OPTIONS } from './scenarios/throughput';
const env = await startBenchEnv(loadConfig(), () => {});
const cpu = (pid: number | string) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const serverPid = Number(process.argv[2] ?? 0);
const ts = (e: any) => Number(e.eventTime!.seconds) * 1000 + (e.eventTime!.nanos ?? 0) / 1e6;
try {
  await env.withWorker(async (tq) => {
    const pids = readFileSync('/proc/self/task/' + process.pid + '/children', 'utf8').trim().split(' ').filter(Boolean);
    for (let rep = 0; rep < 2; rep++) {
      const c0 = pids.map(cpu), me0 = process.cpuUsage();
      const t0 = performance.now();
      const handles = await Promise.all(Array.from({ length: 200 }, () => env.client.workflow.start('sequentialOpsBaselineWorkflow', { taskQueue: tq, workflowId: uid('tp'), args: [{ op: 'noop', count: 5 }] })));
      await Promise.all(handles.map((h) => h.result()));
      const wall = (performance.now() - t0) / 1000;
      const me = process.cpuUsage(me0);
      console.log('wall', wall.toFixed(1), 's; runs/s', (200 / wall).toFixed(1), '; bench proc cpu', ((me.user + me.system) / 1e6).toFixed(1), 's; children cpu', pids.map((p, i) => (cpu(p) - c0[i]!).toFixed(1)).join(','));
      const g: Record<string, number> = {};
      for (const h of handles.slice(0, 20)) {
        let prev = 0;
        for (const e of (await h.fetchHistory()).events ?? []) {
          const type = Object.keys(e).find((key) => key.endsWith('EventAttributes') && (e as any)[key])!.replace('EventAttributes', '');
          g[type] = (g[type] ?? 0) + (prev ? ts(e) - prev : 0); prev = ts(e);
        }
      }
      console.log(Object.entries(g).map(([k, v]) => `${k}:${(v / 20).toFixed(0)}`).join(' '));
    }
  }, THROUGHPUT_WORKER_OPTIONS);
} finally { await env.close(); }
