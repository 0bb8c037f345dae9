/**
 * What opening a run settles before its first node: which ops the executor's own task queue must
 * provide, and which of those declare themselves local. The worker answers it in `beginRun`; a
 * starter with the op registry answers it before the start (docs/execution.md#starting-a-run).
 */
import { BUILTIN_EXECUTOR_OPS } from './approvals';
import type { PlanGraphPayload } from './records';
import { isSubPlanNode } from './sub-plan';

/** The answer a run starts from: its ops that run as local activities. */
export interface RunBegun {
  local_ops: string[];
}

/** Ops of the plan that workers on the executor's task queue run, sorted and without repeats. */
export function workerOps(payload: Pick<PlanGraphPayload, 'nodes'>): string[] {
  const ops = payload.nodes.filter((n) => !n.policy?.task_queue && !BUILTIN_EXECUTOR_OPS.has(n.op) && !isSubPlanNode(n)).map((n) => n.op);
  return [...new Set(ops)].sort();
}
