/**
 * Keeps each workflow task's completion inside gRPC's 4 MB message limit. A completion carries
 * every activity scheduled in the task with its input, and the marker of every local activity
 * that finished in it with its output; over 4 MB the worker cannot report the task and the run
 * stalls. A fan of one large output to several activities, a chain of large local outputs, or a
 * few thousand local nodes in a row each reach it. So nodes that would overfill the task wait for
 * the next one: a no-op activity (one for all waiters) makes the worker report what it has, and
 * its result starts the next task at once (a 1 ms timer took a second to fire on the dev server).
 *
 * Local nodes running side by side finish into the same completion (the worker reports a task
 * only once its local activities are done), so with `reserveLocal` each holds a guess of its
 * output while it runs: the largest output its op gave in this run, at least its input's size
 * (picks, merges and echoes return about what they get), or UNSEEN_OUTPUT_BYTES for an op not
 * seen yet. A node starts while the task's count with those guesses is under the budget, as a
 * single node starts while the count is (its own output of up to 2 MB still fits after it);
 * otherwise it waits for a node in flight to end, or with none in flight for the next task.
 *
 * Counted from the run's own data only, never from `workflowInfo()`, so replay decides alike.
 * The count restarts only at those boundaries: tasks that ended on their own are not seen, which
 * at worst costs one boundary more per TASK_BYTES of node data.
 */
import { CancellationScope, scheduleActivity, type ActivityOptions } from '@temporalio/workflow';
import { jsonBytes, utf8Length } from '../src/domain/payload-size';

const BOUNDARY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10s',
  summary: 'workflow task boundary: the nodes of the last task carried about 1.5 MB of data',
};

/** Partitions ask this patch for named boundaries (whole runs: BOUNDARY_ID_VERSION). */
export const BOUNDARY_ID_PATCH = 'executor-boundary-id';

/** Runs started before the budget (without TASK_BUDGET_VERSION) and partitions ask this patch. */
export const TASK_BUDGET_PATCH = 'executor-task-budget';

/** Partitions ask this one for `reserveLocal` (whole runs: LOCAL_RESERVE_VERSION). */
export const LOCAL_RESERVE_PATCH = 'executor-local-reserve';

/** What one task's completion may carry before nodes wait; a local output of up to 2 MB still fits after it. */
export const TASK_BYTES = 1_500_000;

/** A local activity's marker besides its output (measured: ~410 bytes). */
const MARKER_BYTES = 450;

/** The guess for a local node whose op has given no output yet in this run: the most NODE_OUTPUT_LIMIT_BYTES allows. */
export const UNSEEN_OUTPUT_BYTES = 2_000_000;

export class TaskBudget {
  private used = 0;
  /** The output guesses of the local nodes running now. */
  private reserved = 0;
  /** The largest output each op gave in this run. */
  private readonly largest = new Map<string, number>();
  /** Local nodes waiting for one running now to end. */
  private waiting: Array<() => void> = [];
  private boundary: Promise<void> | undefined;

  /** Boundaries scheduled so far: the next one's id (with `namedBoundaries`). */
  private boundaries = 0;

  /**
   * @param reserveLocal local nodes hold a guess of their output while they run (LOCAL_RESERVE_VERSION)
   * @param namedBoundaries boundaries have the id `$task-boundary-<n>`, never a node's (BOUNDARY_ID_VERSION)
   */
  constructor(
    private readonly reserveLocal = false,
    private readonly namedBoundaries = false,
  ) {}

  /**
   * An activity whose input is `bytes`: undefined when it may be scheduled now (it is counted),
   * or a promise to await first. The first command of a task is always admitted.
   */
  admitActivity(bytes: number): Promise<void> | undefined {
    if (this.used > 0 && this.used + bytes > TASK_BYTES) return this.nextTask().then(() => this.admitActivity(bytes));
    this.used += bytes;
    return undefined;
  }

  /**
   * A local node of `op` with `input`: its output guess (0 without `reserveLocal`), returned when it
   * may run now or resolved once it may. It is counted when it ends (succeeded(), failed()).
   */
  admitLocal(op: string, input: unknown): number | Promise<number> {
    if (!this.reserveLocal) return this.used < TASK_BYTES ? 0 : this.nextTask().then(() => this.admitLocal(op, input));
    if (this.used + this.reserved < TASK_BYTES) {
      const guess = Math.max(this.largest.get(op) ?? UNSEEN_OUTPUT_BYTES, jsonBytes(input));
      this.reserved += guess;
      return guess;
    }
    const turn = this.reserved > 0 ? new Promise<void>((resolve) => this.waiting.push(resolve)) : this.nextTask();
    return turn.then(() => this.admitLocal(op, input));
  }

  /** A local node succeeded: its marker, with `outputBytes` of output, is in the task's completion. */
  succeeded(op: string, guess: number, outputBytes: number): void {
    if (this.reserveLocal) this.largest.set(op, Math.max(this.largest.get(op) ?? 0, outputBytes));
    this.ended(guess, outputBytes);
  }

  /** A local node failed: its marker carries the failure (counted with `reserveLocal`). */
  failed(guess: number, err: unknown): void {
    this.ended(guess, this.reserveLocal ? failureBytes(err) : 0);
  }

  private ended(guess: number, bytes: number): void {
    this.used += bytes + MARKER_BYTES;
    if (!this.reserveLocal) return;
    this.reserved -= guess;
    const woken = this.waiting;
    this.waiting = [];
    for (const resolve of woken) resolve();
  }

  /**
   * Resolves in the next workflow task. Not cancellable: a node cancelled meanwhile learns it when
   * it schedules (an activity scheduled in a cancelled scope is rejected without a command).
   */
  private nextTask(): Promise<void> {
    this.boundary ??= CancellationScope.nonCancellable(() => scheduleActivity<void>('endWorkflowTask', [], this.boundaryOptions())).then(() => {
      this.used = 0;
      this.boundary = undefined;
    });
    return this.boundary;
  }

  private boundaryOptions(): ActivityOptions {
    return this.namedBoundaries ? { ...BOUNDARY_OPTIONS, activityId: `$task-boundary-${++this.boundaries}` } : BOUNDARY_OPTIONS;
  }
}

/** What a failed local node's marker carries: the messages and stacks of the failure and its causes. */
function failureBytes(err: unknown): number {
  let bytes = 0;
  for (let e: unknown = err; e instanceof Error; e = e.cause) bytes += utf8Length(e.message) + utf8Length(e.stack ?? '');
  return bytes;
}
