/**
 * Waiting for a person (docs/execution.md#approvals): approval nodes and the run-level gate of
 * `constraints.requires_approval`. The executor does the waiting itself (no activity, no worker
 * op); a decision arrives as the `approval` Temporal Update. Pure and free of zod: safe in workflow
 * code (the wire schemas are in approval-schemas.ts, which the executor loads only for plans that wait).
 */
import { defineUpdate } from '@temporalio/workflow';
import type * as ApprovalSchemas from './approval-schemas';
import type { PlanGraphPayload } from './records';
import { durationMs } from './node-execution';
import { resolveTemplates } from './refs';

export type ApprovalRequest = ApprovalSchemas.ApprovalRequest;
export type ApprovalDecision = ApprovalSchemas.ApprovalDecision;
export type ApprovalWait = ApprovalSchemas.ApprovalWait;

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

/** The executor's update handler: a decision on one open wait. */
export const approvalUpdate = defineUpdate<ApprovalDecision, [ApprovalRequest]>('approval');

/** The gate's prompt and timeout (ms), when the plan asks for one. */
export function runGate(plan: Pick<PlanGraphPayload, 'constraints' | 'intent'>): { prompt: string; timeoutMs?: number } | undefined {
  const c = plan.constraints as Record<string, unknown>;
  if (c.requires_approval !== true) return undefined;
  const prompt = typeof c.approval_prompt === 'string' && c.approval_prompt !== '' ? c.approval_prompt : `Run plan "${plan.intent}"?`;
  const raw = c.approval_timeout;
  const ms = typeof raw === 'string' || typeof raw === 'number' ? durationMs(raw) : undefined;
  return { prompt, timeoutMs: ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined };
}

/**
 * The gate's prompt as the approver reads it, its `{{inputs…}}` references filled in from the run's
 * inputs (validation allows no other reference: no node has run when the gate is asked). A prompt
 * that is one reference to a missing input stays as written, so the approver sees what is missing.
 */
export function gatePrompt(prompt: string, inputs: unknown): string {
  const filled = resolveTemplates(prompt, { inputs, nodes: {} }, []);
  if (typeof filled === 'string') return filled;
  return filled === undefined || filled === null ? prompt : JSON.stringify(filled);
}
