/**
 * The plangraph worker: executor and consolidation workflows plus every activity, wired from
 * their dependencies in one place.
 */
import { resolve } from 'node:path';
import type { NativeConnection} from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { createOpActivities } from '../../activities/op-activities';
import { createConsolidationActivities } from '../../activities/consolidation-activities';
import { createReconcileActivities } from '../../activities/reconcile-activities';
import { createRunActivities } from '../../activities/run-activities';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { createEmbedder } from '../embeddings/embedder';
import type { OpRegistry } from '../ops/registry';
import { createRunStore } from '../store/plan-runs';

export const WORKFLOWS_PATH = resolve(import.meta.dirname, '../../workflows/index.ts');

export interface WorkerDeps {
  config: Config;
  db: Db;
  registry: OpRegistry;
  connection: NativeConnection;
  /** A prebuilt workflow bundle (tests bundle once per run); otherwise bundled at start. */
  workflowBundlePath?: string;
  taskQueue?: string;
  extra?: Partial<WorkerOptions>;
}

/** All activities the worker registers. */
export function createActivities(deps: Pick<WorkerDeps, 'config' | 'db' | 'registry'>) {
  return {
    ...createOpActivities(deps.registry, { outputLimitBytes: deps.config.NODE_OUTPUT_LIMIT_BYTES }),
    ...createRunActivities({ runs: createRunStore(deps.db), registry: deps.registry }),
    ...createConsolidationActivities({ db: deps.db, embedder: createEmbedder(deps.config), generalise: deps.config.CONSOLIDATION_GENERALISE }),
    ...createReconcileActivities({ runs: createRunStore(deps.db) }),
  };
}

/** Creates (does not run) a worker on the configured task queue. */
export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.taskQueue ?? deps.config.TEMPORAL_TASK_QUEUE,
    ...(deps.workflowBundlePath ? { workflowBundle: { codePath: deps.workflowBundlePath } } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities(deps),
    maxConcurrentActivityTaskExecutions: 200,
    ...deps.extra,
  });
}
