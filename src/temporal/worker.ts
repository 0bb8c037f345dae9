/**
 * The plangraph worker: executor and consolidation workflows plus every activity, wired from
 * their dependencies in one place.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker, type RuntimeOptions, type WorkerOptions } from '@temporalio/worker';
import { createOpActivities } from '../../activities/op-activities';
import { createConsolidationActivities } from '../../activities/consolidation-activities';
import { createReconcileActivities } from '../../activities/reconcile-activities';
import { createRunActivities } from '../../activities/run-activities';
import { createSubPlanActivities } from '../../activities/sub-plan-activities';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { createEmbedder } from '../embeddings/embedder';
import type { OpRegistry } from '../ops/registry';
import { TRACED_WORKFLOW_CODE, WORKFLOW_CODE } from '../package-files';
import { activeTracing, type Tracing } from '../telemetry/tracing';
import { workerMetricsInterceptor } from './worker-metrics';
import { createRunOutcomeSink } from '../runs/outcome-sink';
import { createRunStore } from '../store/plan-runs';
import { createRecordStore } from '../store/records';
import { connectFailure, temporalConnectionOptions, type TemporalTarget } from './connection';

export interface WorkerDeps {
  config: Config;
  db: Db;
  registry: OpRegistry;
  connection: NativeConnection;
  /**
   * A prebuilt workflow bundle (tests bundle once per run); otherwise bundled at start. With
   * tracing on it must include the OpenTelemetry workflow interceptors (OTEL_WORKFLOW_INTERCEPTORS).
   */
  workflowBundlePath?: string;
  taskQueue?: string;
  extra?: Partial<WorkerOptions>;
}

/** All activities the worker registers. */
export function createActivities(deps: Pick<WorkerDeps, 'config' | 'db' | 'registry'>) {
  return {
    ...createOpActivities(deps.registry, { outputLimitBytes: deps.config.NODE_OUTPUT_LIMIT_BYTES }),
    ...createRunActivities({ runs: createRunStore(deps.db), registry: deps.registry, records: createRecordStore(deps.db) }),
    ...createConsolidationActivities({ db: deps.db, embedder: createEmbedder(deps.config), generalise: deps.config.CONSOLIDATION_GENERALISE }),
    ...createReconcileActivities({ runs: createRunStore(deps.db) }),
    ...createSubPlanActivities({ records: createRecordStore(deps.db) }),
  };
}

/**
 * Options for the process-wide Temporal runtime: its log level and, with WORKER_METRICS_ADDRESS,
 * a Prometheus endpoint for the SDK's worker metrics. Activity metrics carry the op as
 * `activity_type`, so `temporal_activity_execution_latency` is node latency by op.
 */
export function workerRuntimeOptions(config: Pick<Config, 'LOG_LEVEL' | 'WORKER_METRICS_ADDRESS'>): RuntimeOptions {
  return {
    logger: new DefaultLogger(config.LOG_LEVEL === 'debug' ? 'DEBUG' : 'WARN'),
    ...(config.WORKER_METRICS_ADDRESS && {
      telemetryOptions: { metrics: { prometheus: { bindAddress: config.WORKER_METRICS_ADDRESS, countersTotalSuffix: true, unitSuffix: true } } },
    }),
  };
}

/** The worker's native connection with the configured address, API key and TLS; one line on failure. */
export async function connectWorker(target: Omit<TemporalTarget, 'TEMPORAL_NAMESPACE'>): Promise<NativeConnection> {
  try {
    return await NativeConnection.connect(temporalConnectionOptions(target));
  } catch (err) {
    throw await connectFailure(target, err);
  }
}

/**
 * Workflow code, interceptors and sinks: with tracing, activity spans, workflow spans (leaving the
 * sandbox through the `exporter` sink) and trace context passed on to every activity.
 */
function workflowCodeAndInterceptors(deps: WorkerDeps, tracing: Tracing | undefined): Partial<WorkerOptions> {
  // plangraph's histograms only where the runtime serves metrics (WORKER_METRICS_ADDRESS).
  const metrics = deps.config.WORKER_METRICS_ADDRESS ? [workerMetricsInterceptor(new Set(deps.registry.keys()))] : [];
  if (!tracing) {
    return {
      ...(deps.workflowBundlePath ? { workflowBundle: { codePath: deps.workflowBundlePath } } : WORKFLOW_CODE),
      interceptors: { activity: metrics },
    };
  }
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } = tracing.temporal;
  const code = deps.workflowBundlePath ? { workflowBundle: { codePath: deps.workflowBundlePath } } : TRACED_WORKFLOW_CODE;
  const { workflowModules, ...source } = { workflowModules: undefined, ...code };
  return {
    ...source,
    interceptors: {
      activity: [
        (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
        ...metrics,
      ],
      ...(workflowModules && { workflowModules }),
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}

/** At most one heartbeat per running activity this often, unless its node sets heartbeat_timeout. */
const HEARTBEAT_THROTTLE = '2s';

/** Creates (does not run) a worker on the configured task queue. */
export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  const code = workflowCodeAndInterceptors(deps, activeTracing());
  const outcomes = createRunOutcomeSink({ runs: createRunStore(deps.db), log: Runtime.instance().logger });
  return Worker.create({
    connection: deps.connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.taskQueue ?? deps.config.TEMPORAL_TASK_QUEUE,
    ...code,
    sinks: { ...code.sinks, ...outcomes.sinks },
    activities: createActivities(deps),
    maxConcurrentActivityTaskExecutions: 200,
    // Drain on shutdown: the SDK's default of 0 cancels running activities at once, so a deploy
    // would fail (and retry elsewhere) every node in flight.
    shutdownGraceTime: deps.config.WORKER_SHUTDOWN_GRACE_MS,
    // A run's cancellation reaches an activity in the answer to its heartbeat: the SDK's default
    // of one heartbeat per 30 s (nodes without heartbeat_timeout) left a cancelled node running that long.
    defaultHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    ...deps.extra,
  });
}
