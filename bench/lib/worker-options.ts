/**
 * Worker options for the scenarios that put many workflows or activities in flight at once.
 *
 * A run of a 5-node plan needs ~7 workflow tasks and 6 activity tasks. With the SDK defaults
 * (40 workflow-task slots, 10 pollers per kind) a burst leaves tasks waiting in the server's
 * queues for a free poller; more slots and pollers keep the queues drained. A cache larger than
 * the burst means no run is evicted and replayed from its history mid-flight.
 */
import type { WorkerOptions } from '@temporalio/worker';

export const BURST_WORKER_OPTIONS: Partial<WorkerOptions> = {
  maxConcurrentWorkflowTaskExecutions: 100,
  maxConcurrentWorkflowTaskPolls: 20,
  maxConcurrentActivityTaskExecutions: 400,
  maxConcurrentActivityTaskPolls: 20,
  maxConcurrentLocalActivityExecutions: 200,
  maxCachedWorkflows: 1000,
};
