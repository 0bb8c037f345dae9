/**
 * One consolidation pass on demand: a one-off workflow with its own id, awaited, its progress
 * asked for while it runs when the caller wants to show it.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Config } from '../config';
import { consolidationProgressQuery, type ConsolidationProgress } from '../domain/consolidation-progress';
import { DomainError } from '../domain/errors';
import type { consolidationWorkflow } from '../../workflows/consolidation';
import { CONSOLIDATION_ID } from './scheduling';
import type { ConsolidationResult } from './result';

export interface PassReport extends ConsolidationResult {
  workflow_id: string;
}

/** temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW (the proto package is not a direct dependency). */
const WORKFLOW_TASK_QUEUE = 1;

/** How long a pass on demand waits for a worker to show up on its task queue. */
const WORKER_WAIT_MS = 10_000;

async function hasPoller(client: Client, taskQueue: string): Promise<boolean> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: WORKFLOW_TASK_QUEUE,
  });
  return (response.pollers ?? []).length > 0;
}

/**
 * Refuses to wait on a task queue no worker polls, where the pass would never start. A worker
 * that is just starting gets a few seconds to send its first poll.
 */
async function assertWorkerPolling(client: Client, taskQueue: string): Promise<void> {
  const deadline = Date.now() + WORKER_WAIT_MS;
  while (!(await hasPoller(client, taskQueue))) {
    if (Date.now() > deadline) {
      throw new DomainError('unavailable', `no worker polls task queue "${taskQueue}": start \`plangraph worker\` or \`plangraph dev\``);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The pass's result, asking its workflow for progress every `everyMs` until then. */
async function resultWithProgress(handle: WorkflowHandle<typeof consolidationWorkflow>, onProgress: (progress: ConsolidationProgress) => void, everyMs: number): Promise<ConsolidationResult> {
  const result = handle.result();
  const ended = result.then(() => true, () => true);
  // The tick does not hold the process open once the pass has ended.
  while (!(await Promise.race([ended, delay(everyMs, false, { ref: false })]))) {
    // A query can miss while the pass continues as new or its worker restarts: the next tick asks again.
    const progress = await handle.query(consolidationProgressQuery).catch(() => undefined);
    if (progress) onProgress(progress);
  }
  return result;
}

export interface PassOptions {
  pageSize?: number;
  regeneralize?: boolean;
  /** Hears what the pass has done so far, every `progressEveryMs` (default 1 s) while it runs. */
  onProgress?: (progress: ConsolidationProgress) => void;
  progressEveryMs?: number;
}

/** Runs one consolidation pass now and returns its counts. */
export async function runConsolidationOnce(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'CONSOLIDATION_PAGE_SIZE'>, options: PassOptions = {}): Promise<PassReport> {
  await assertWorkerPolling(client, config.TEMPORAL_TASK_QUEUE);
  const workflowId = `${CONSOLIDATION_ID}-once-${randomUUID()}`;
  const args: Parameters<typeof consolidationWorkflow> = [{ page_size: options.pageSize ?? config.CONSOLIDATION_PAGE_SIZE, ...(options.regeneralize ? { regeneralize: true } : {}) }];
  const handle = await client.workflow.start<typeof consolidationWorkflow>('consolidationWorkflow', {
    workflowId,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args,
    staticSummary: options.regeneralize ? 'consolidation pass on demand, regeneralizing stored plans' : 'consolidation pass on demand',
  });
  const result = options.onProgress ? await resultWithProgress(handle, options.onProgress, options.progressEveryMs ?? 1_000) : await handle.result();
  return { workflow_id: workflowId, ...result };
}
