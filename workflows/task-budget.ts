/**
 * Keeps each workflow task's completion inside gRPC's 4 MB message limit. A completion carries
 * every activity scheduled in the task with its input, and the marker of every local activity
 * that finished in it with its output; over 4 MB the worker cannot report the task and the run
 * stalls. A fan of one large output to several activities, a chain of large local outputs, or a
 * few thousand local nodes in a row each reach it. So nodes that would overfill the task wait for
 * the next one: a no-op activity (one for all waiters) makes the worker report what it has, and
 * its result starts the next task at once (a 1 ms timer took a second to fire on the dev server).
 *
 * Counted from the run's own data only, never from `workflowInfo()`, so replay decides alike.
 * The count restarts only at those boundaries: tasks that ended on their own are not seen, which
 * at worst costs one boundary more per TASK_BYTES of node data.
 */
import { CancellationScope, proxyActivities } from '@temporalio/workflow';
import type { createRunActivities } from '../activities/run-activities';

const { endWorkflowTask } = proxyActivities<ReturnType<typeof createRunActivities>>({
  startToCloseTimeout: '10s',
  summary: 'workflow task boundary: the nodes of the last task carried about 1.5 MB of data',
});

/** Runs started before the budget (without TASK_BUDGET_VERSION) and partitions ask this patch. */
export const TASK_BUDGET_PATCH = 'executor-task-budget';

/** What one task's completion may carry before nodes wait; a local output of up to 2 MB still fits after it. */
export const TASK_BYTES = 1_500_000;

/** A local activity's marker besides its output (measured: ~410 bytes). */
const MARKER_BYTES = 450;

export class TaskBudget {
  private used = 0;
  private boundary: Promise<void> | undefined;

  /**
   * An activity whose input is `bytes`: undefined when it may be scheduled now (it is counted),
   * or a promise to await first. The first command of a task is always admitted.
   */
  admitActivity(bytes: number): Promise<void> | undefined {
    if (this.used > 0 && this.used + bytes > TASK_BYTES) return this.nextTask().then(() => this.admitActivity(bytes));
    this.used += bytes;
    return undefined;
  }

  /** A local node, whose output is counted when it ends (settled()): waits while the task is full. */
  admitLocal(): Promise<void> | undefined {
    return this.used < TASK_BYTES ? undefined : this.nextTask().then(() => this.admitLocal());
  }

  /** A local node ended: its marker, with `outputBytes` of output, is in the task's completion. */
  settled(outputBytes: number): void {
    this.used += outputBytes + MARKER_BYTES;
  }

  /**
   * Resolves in the next workflow task. Not cancellable: a node cancelled meanwhile learns it when
   * it schedules (an activity scheduled in a cancelled scope is rejected without a command).
   */
  private nextTask(): Promise<void> {
    this.boundary ??= CancellationScope.nonCancellable(() => endWorkflowTask()).then(() => {
      this.used = 0;
      this.boundary = undefined;
    });
    return this.boundary;
  }
}
