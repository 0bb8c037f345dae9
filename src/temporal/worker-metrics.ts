/**
 * plangraph's own worker metrics, recorded through the Temporal runtime's meter so they appear
 * beside the SDK's on the worker's Prometheus endpoint (WORKER_METRICS_ADDRESS; without it the
 * meter is a no-op): node latency by op and outcome, and consolidation pass duration.
 */
import type { Context as ActivityContext } from '@temporalio/activity';
import type { MetricHistogram } from '@temporalio/common';
import { Runtime, type ActivityInterceptorsFactory } from '@temporalio/worker';

/** The activity that ends a consolidation pass (workflows/consolidation.ts). */
const PASS_END_ACTIVITY = 'recordConsolidationPass';

interface Histograms {
  node: MetricHistogram;
  pass: MetricHistogram;
}

let histograms: Histograms | undefined;

/** Created once per process, on the runtime installed by then. */
function workerHistograms(): Histograms {
  histograms ??= {
    node: Runtime.instance().metricMeter.createHistogram('plangraph_node_duration', 'int', 'milliseconds', 'Time a node took to execute its op, by op and outcome'),
    pass: Runtime.instance().metricMeter.createHistogram(
      'plangraph_consolidation_pass_duration',
      'int',
      'milliseconds',
      'Time from a consolidation workflow run starting to its pass being recorded',
    ),
  };
  return histograms;
}

/** How long ago the workflow run of an activity started, from the server's description of it. */
async function workflowRunAgeMs(ctx: ActivityContext): Promise<number | undefined> {
  const execution = ctx.info.workflowExecution;
  if (!execution) return undefined;
  const { startTime } = await ctx.client.workflow.getHandle(execution.workflowId, execution.runId).describe();
  return Date.now() - startTime.getTime();
}

/**
 * Times every op activity (activity type = op; local nodes too) and, once a consolidation pass is
 * recorded, the pass. A describe that fails only loses that sample, never the activity.
 */
export function workerMetricsInterceptor(ops: ReadonlySet<string>): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const type = ctx.info.activityType;
        if (type === PASS_END_ACTIVITY) {
          const result = await next(input);
          const age = await workflowRunAgeMs(ctx).catch(() => undefined);
          if (age !== undefined) workerHistograms().pass.record(age);
          return result;
        }
        if (!ops.has(type)) return next(input);
        const started = performance.now();
        let outcome = 'failed';
        try {
          const result = await next(input);
          outcome = 'succeeded';
          return result;
        } finally {
          const ms = Math.round(performance.now() - started);
          // An attempt that outlived its start-to-close timeout was failed by Temporal at that point,
          // whatever the op did after (a heartbeating op learns it only as "not found").
          const limit = ctx.info.startToCloseTimeoutMs;
          if (ctx.cancellationDetails?.timedOut || (limit > 0 && ms > limit)) outcome = 'timed_out';
          workerHistograms().node.record(ms, { op: type, outcome, task_queue: ctx.info.taskQueue });
        }
      },
    },
  });
}
