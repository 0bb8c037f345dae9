/**
 * The scheduling loop both executor paths share (a whole run, or one partition of a large one):
 * ready nodes start in topological order while slots are free, a failure under fail_fast aborts
 * the rest, and the run waits until every node is final or its timeout passes. The caller says
 * how a node's work starts.
 */
import { CancellationScope, condition, isCancellation, sleep } from '@temporalio/workflow';
import type { PlanNode } from '../src/domain/records';
import { resolveTemplates } from '../src/domain/refs';
import { NODE_ERROR_TYPES, type NodeActivityInput, type NodeActivityResult, type NodeError } from '../src/domain/run-state';
import type { CompositeResult } from './map-node';
import { describeFailure } from './node-failure';
import { nodeCall, unresolvedRefsFailure } from './node-calls';
import { retryPolicy } from './node-options';
import type { PlanRun } from './plan-run';
import type { TaskBudget } from './task-budget';

const now = () => new Date().toISOString();

/** A duration as Temporal timers take it: milliseconds or a string such as "5m". */
type Duration = Parameters<typeof sleep>[0];

/** What a node's work ends with: an activity's own result, or a composite node's. */
export type NodeResult = CompositeResult | NodeActivityResult;

/**
 * A node's work as one activity (or local activity) of its op, its params resolved now. Runs
 * started before the combined patch (plan-executor.ts) and partitions map the activity's result
 * in a reaction of its own, which shifts when the node settles: their recorded command order
 * depends on it. New runs settle on the activity's promise itself, one promise fewer per node.
 * With a `budget` (TASK_BUDGET_VERSION), a node that would overfill the workflow task's
 * completion waits for the next task (task-budget.ts). With `strictRefs` (UNRESOLVED_REF_VERSION),
 * a node whose params read an upstream output that does not resolve fails without running.
 */
export function activityWork(run: PlanRun, node: PlanNode, local: boolean, mapResult: boolean, budget?: TaskBudget, strictRefs = false): () => Promise<NodeResult> {
  const scope = run.scopeFor(node.id);
  const unresolved = strictRefs ? unresolvedRefsFailure(node, scope, run.index.nodeIds) : undefined;
  if (unresolved) return () => Promise.reject(unresolved);
  const activityInput: NodeActivityInput = {
    node_id: node.id,
    params: resolveTemplates(node.params, scope, run.index.nodeIds) as Record<string, unknown>,
    inputs: run.dataInputs(node.id),
  };
  const schedule = nodeCall(node, activityInput, local, budget);
  return mapResult ? () => schedule().then((r) => ({ output: r.output, attempts: r.attempt })) : schedule;
}

export interface SchedulerOptions {
  run: PlanRun;
  failFast: boolean;
  maxParallel: number;
  /** Marks the node started and returns its work, which runs in the node's own cancellation scope. */
  start(node: PlanNode): () => Promise<NodeResult>;
  /** Settles a ready node without running it (a resumed run's reused output); true when it did. */
  settle?(node: PlanNode): boolean;
  /** `patched(SHARED_SCOPE_PATCH)`, asked by the caller in the run's first activation. */
  sharedScope: boolean;
  /**
   * complete() stops starting nodes once it sees the run's cancellation, even if no node rejected
   * (CANCEL_SAFE_VERSION); before, only a node's rejection stopped them.
   */
  stopOnCancel?: boolean;
}

/**
 * Runs started on this code run every node in one cancellation scope, entered once, and settle
 * each node in one promise reaction. The SDK captures a stack trace for every promise a workflow
 * creates; a scope, its run and a `finally` per node were most of the executor's per-node cost
 * (docs/execution.md#cost-per-node). Older runs give each node its own scope, as they recorded.
 * It changes the order of commands when several nodes finish in one workflow task, hence the patch.
 * Callers ask it first thing, beside their other patches and before any local activity: asked
 * after `beginRun` it failed some replays (docs/workflow-changes.md).
 */
export const SHARED_SCOPE_PATCH = 'executor-shared-node-scope';

export class NodeScheduler {
  private readonly scopes = new Map<string, CancellationScope>();
  /** The one scope of all nodes' work (SHARED_SCOPE_PATCH), created when the nodes start. */
  private nodesScope: CancellationScope | undefined;
  /** The error that stopped the run early (fail_fast, timeout, a refused gate). */
  aborting: NodeError | undefined;
  /** Set when the run itself is cancelled, so nodes released afterwards are cancelled, not started. */
  private cancelRequested = false;
  /** The run's cancellation as a node's work saw it (for runToEnd(), which waits on no condition). */
  private cancellation: unknown;
  /** runToEnd()'s check, after every node settles. */
  private onSettled: (() => void) | undefined;

  constructor(private readonly options: SchedulerOptions) {}

  /** Why nodes that never started end cancelled. */
  stopReason(): string {
    return this.aborting ? `run aborted: ${this.aborting.message}` : 'run cancelled';
  }

  abort(error: NodeError): void {
    if (this.aborting) return;
    this.aborting = error;
    this.nodesScope?.cancel();
    for (const scope of this.scopes.values()) scope.cancel();
  }

  private failed(node: PlanNode, error: NodeError, attempts?: number, output?: unknown): void {
    this.options.run.finish(node.id, 'failed', now(), { error, attempts, output });
    if (this.options.failFast && !node.policy?.continue_on_error) this.abort({ type: error.type, message: `node "${node.id}" failed: ${error.message}` });
  }

  private succeeded(node: PlanNode, result: NodeResult): void {
    if ('attempt' in result) this.options.run.finish(node.id, 'succeeded', now(), { output: result.output, attempts: result.attempt });
    else if (result.error) this.failed(node, result.error, result.attempts, result.output);
    else this.options.run.finish(node.id, 'succeeded', now(), { output: result.output, attempts: result.attempts });
  }

  /** The run's cancellation (unless an abort came first): no node starts after it. */
  private cancelledBy(err: unknown): void {
    if (this.aborting) return;
    this.cancelRequested = true;
    this.cancellation ??= err;
  }

  private rejected(node: PlanNode, err: unknown): void {
    if (isCancellation(err)) {
      this.cancelledBy(err);
      this.options.run.finish(node.id, 'cancelled', now(), { reason: this.stopReason() });
      return;
    }
    const { error, attempts } = describeFailure(err, retryPolicy(node).maximumAttempts);
    this.failed(node, error, attempts);
  }

  private startNode(node: PlanNode): void {
    const work = this.options.start(node);
    if (this.options.sharedScope) {
      // Already inside the nodes' scope (see complete()): reactions run in the scope they were made in.
      const settled = (record: () => void) => {
        try {
          record();
        } finally {
          this.pump();
          this.onSettled?.();
        }
      };
      void work().then(
        (result) => settled(() => this.succeeded(node, result)),
        (err: unknown) => settled(() => this.rejected(node, err)),
      );
      return;
    }
    const scope = new CancellationScope();
    this.scopes.set(node.id, scope);
    scope
      .run(work)
      .then(
        (result) => this.succeeded(node, result),
        (err: unknown) => this.rejected(node, err),
      )
      .finally(() => {
        this.scopes.delete(node.id);
        this.pump();
      });
  }

  /** The first pump inside the one scope every node's work then runs in (SHARED_SCOPE_PATCH). */
  private pumpInScope(): Promise<void> {
    this.nodesScope = new CancellationScope();
    return this.nodesScope.run(async () => this.pump());
  }

  /** Starts or skips every ready node, in topological order, while slots are free. */
  pump(): void {
    const { run, maxParallel } = this.options;
    while (run.hasReady()) {
      if (this.aborting || this.cancelRequested) {
        run.cancelPending(now(), this.stopReason());
        return;
      }
      const decision = run.nextDecision();
      if (!decision) return;
      if (decision.kind === 'skip') {
        run.finish(decision.node.id, 'skipped', now(), { reason: decision.reason });
        continue;
      }
      if (this.options.settle?.(decision.node)) continue;
      if (run.running >= maxParallel) {
        run.deferStart(decision.node.id);
        return;
      }
      this.startNode(decision.node);
    }
  }

  /**
   * The lean wait of version 3 runs (LEAN_WAIT_VERSION) whose nodes are all activities or local
   * activities, with no timeout and no gate: runs the nodes and resolves, once every node is final,
   * with the run's cancellation or undefined. The SDK captures a source-mapped stack trace for every
   * promise workflow code creates; complete() creates eight more than this (its own, the scope's run
   * and async wrapper, the condition and their awaits), the largest part of the executor's own cost
   * in a small run (docs/execution.md#cost-per-node). A `sequential` run (a chain, or one node at a
   * time) has no nodes' scope either: nothing runs beside a node whose failure aborts the run, and
   * the run's cancellation reaches its node through the root scope. It relies on every node's work
   * rejecting with a cancellation when the run is cancelled, which activities do; approvals, map
   * and sub-plan nodes wait with complete().
   */
  runToEnd(sequential: boolean): Promise<unknown> {
    const { run } = this.options;
    return new Promise((resolve) => {
      this.onSettled = () => {
        if (run.done || (this.aborting !== undefined && run.running === 0)) resolve(this.cancellation);
      };
      if (sequential) this.pump();
      else {
        this.nodesScope = new CancellationScope();
        // run() awaits whatever its function returns: a plain call saves the async wrapper's promise.
        void this.nodesScope.run(() => this.pump() as unknown as Promise<void>);
      }
      this.onSettled();
    });
  }

  /**
   * Runs `first` (if any), then the nodes, until every node is final; past `timeout` (named
   * `timeoutText` in the error) the run aborts with run_timeout. Returns the run's cancellation,
   * once every node has settled, or undefined.
   */
  async complete(timeout: Duration | undefined, timeoutText: string, first?: () => Promise<void>): Promise<unknown> {
    const { run } = this.options;
    try {
      if (first) await first();
      if (this.options.sharedScope) await this.pumpInScope();
      else this.pump();
      const allDone = condition(() => run.done || (this.aborting !== undefined && run.running === 0));
      if (timeout === undefined) await allDone;
      else {
        const timer = new CancellationScope();
        const timedOut = timer.run(() => sleep(timeout, { summary: `run timeout · ${timeoutText}` })).then(() => true, () => false);
        const finishedInTime = await Promise.race([allDone.then(() => true), timedOut.then((t) => !t)]);
        timer.cancel();
        if (!finishedInTime) {
          this.abort({ type: NODE_ERROR_TYPES.runTimeout, message: `run exceeded its timeout of ${timeoutText}` });
          await condition(() => run.running === 0);
        }
      }
      return undefined;
    } catch (err) {
      if (!isCancellation(err)) throw err;
      if (this.options.stopOnCancel) this.cancelledBy(err);
      // Wait (uncancellably) for the cancelled nodes to settle so every node has a final state.
      await CancellationScope.nonCancellable(() => condition(() => run.running === 0));
      return err;
    }
  }
}
