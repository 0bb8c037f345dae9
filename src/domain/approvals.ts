/**
 * Waiting for a person (docs/execution.md#approvals): approval nodes and the run-level gate of
 * `constraints.requires_approval`. The executor does the waiting itself (no activity, no worker
 * op); a decision arrives as the `approval` Temporal Update. Pure: safe in workflow code.
 */
import { defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import type { PlanGraphPayload, PlanNode } from './records';
import { durationMs } from './node-execution';

/** The op of an approval node: built into the executor, never dispatched to a worker. */
export const APPROVAL_OP = 'approval';
/** Ops the executor runs itself; the op registry and beginRun's op check leave them out. */
export const BUILTIN_EXECUTOR_OPS: ReadonlySet<string> = new Set([APPROVAL_OP]);
/**
 * The id the run-level gate of `requires_approval: true` waits under: in `waiting_for`, and as
 * the `:node` of `POST /v1/runs/:id/approvals/:node`. A plan that asks for the gate may not use
 * it as a node id (validation code `reserved_node_id`).
 */
export const RUN_GATE_ID = '$run';

/** Stable failure types of approval nodes (and of a gated run's error). */
export const APPROVAL_ERROR_TYPES = {
  rejected: 'approval_rejected',
  timeout: 'approval_timeout',
} as const;

/** Failure types of a refused decision (the update's validator): the API maps them to 404 / 400 / 409. */
export const APPROVAL_REFUSALS = {
  unknownNode: 'approval_unknown_node',
  notApproval: 'approval_not_an_approval_node',
  notWaiting: 'approval_not_waiting',
} as const;

export const APPROVAL_DECISIONS = ['approve', 'reject'] as const;
export type ApprovalDecisionKind = (typeof APPROVAL_DECISIONS)[number];

/** What the API sends in the update: the decision and who made it. */
export const approvalRequestSchema = z.object({
  node_id: z.string().min(1),
  decision: z.enum(APPROVAL_DECISIONS),
  comment: z.string().max(2000).optional(),
  /** The principal that decided (set by the API from the caller, never by the body). */
  by: z.string().min(1),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** A recorded decision: an approved node's output, and the update's answer. */
export const approvalDecisionSchema = z.object({
  node_id: z.string(),
  decision: z.enum(APPROVAL_DECISIONS),
  approved: z.boolean(),
  by: z.string(),
  at: z.string(),
  comment: z.string().optional(),
});
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/** One open wait, as the status query lists it under `waiting_for`. */
export const approvalWaitSchema = z.object({
  /** The approval node's id, or RUN_GATE_ID for the run-level gate. */
  node_id: z.string(),
  prompt: z.string(),
  since: z.string(),
  /** When the wait fails with approval_timeout; absent when it waits indefinitely. */
  timeout_at: z.string().optional(),
  /** Who may decide: any caller who may run the plan (docs/api.md#approvals). */
  decided_by: z.literal('a caller who may run the plan'),
});
export type ApprovalWait = z.infer<typeof approvalWaitSchema>;

/** The executor's update handler: a decision on one open wait. */
export const approvalUpdate = defineUpdate<ApprovalDecision, [ApprovalRequest]>('approval');

const approvalParamsSchema = z.object({
  prompt: z.string().min(1).max(4000),
  timeout: z.union([z.string(), z.number().positive()]).optional(),
});

/** The prompt and timeout (ms) of an approval node whose params are valid. */
export function approvalParams(node: Pick<PlanNode, 'params'>): { prompt: string; timeoutMs?: number } {
  const parsed = approvalParamsSchema.safeParse(node.params);
  if (!parsed.success) return { prompt: '' };
  const ms = parsed.data.timeout === undefined ? undefined : durationMs(parsed.data.timeout);
  return { prompt: parsed.data.prompt, timeoutMs: ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined };
}

/** Why an approval node's params are unusable; empty when they are fine. */
export function approvalParamProblems(node: Pick<PlanNode, 'params'>): Array<{ field: string; message: string }> {
  const parsed = approvalParamsSchema.safeParse(node.params);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'params', message: i.message }));
  const timeout = parsed.success ? parsed.data.timeout : undefined;
  if (timeout !== undefined && !(durationMs(timeout) > 0)) {
    problems.push({ field: 'timeout', message: `"${String(timeout)}" is not a duration such as "30s", "5m", "2h" or a number of ms` });
  }
  return problems;
}

/** The gate's prompt and timeout (ms), when the plan asks for one. */
export function runGate(plan: Pick<PlanGraphPayload, 'constraints' | 'intent'>): { prompt: string; timeoutMs?: number } | undefined {
  const c = plan.constraints as Record<string, unknown>;
  if (c.requires_approval !== true) return undefined;
  const prompt = typeof c.approval_prompt === 'string' && c.approval_prompt !== '' ? c.approval_prompt : `Run plan "${plan.intent}"?`;
  const raw = c.approval_timeout;
  const ms = typeof raw === 'string' || typeof raw === 'number' ? durationMs(raw) : undefined;
  return { prompt, timeoutMs: ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined };
}
