/**
 * The approval messages' wire schemas (zod) and the params of an approval node. Workflow code loads
 * this module only for plans with approval nodes or a run gate (workflows/plan-executor.ts), so a
 * plain run never builds these schemas.
 */
import { z } from 'zod';
import { APPROVAL_DECISIONS } from './approvals';
import { durationMs } from './node-execution';
import type { PlanNode } from './records';

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
