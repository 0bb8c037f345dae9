/**
 * Wire schemas of intents and runs (docs/api.md), shared by the HTTP routes, the TypeScript client,
 * the CLI and the MCP server so every interface speaks the same shapes.
 */
import { z } from 'zod';
import { prototypeKeyProblem } from '../domain/json-limits';
import { MAX_TASK_DESCRIPTOR_CHARS, SELECTION_MODES } from '../domain/selection';
import { idempotencyKeySchema, trustContextSchema } from '../domain/records';
import { nodeErrorSchema, runStatusSchema } from '../domain/run-schemas';

/** The longest a caller may ask `wait` to block, and the default. */
export const MAX_WAIT_MS = 120_000;
export const DEFAULT_WAIT_MS = 30_000;

/**
 * Run inputs: a JSON object. zod copies a record into a new object and drops a `__proto__` key
 * on the way, so a top-level one is refused here while the object is as sent — else MCP and the
 * CLI would start the run without it. Nested ones pass through untouched to assertRunInputs.
 */
const runInputsSchema = z.preprocess((inputs: Record<string, unknown> | undefined, ctx) => {
  const problem = typeof inputs === 'object' && inputs !== null && Object.hasOwn(inputs, '__proto__') ? prototypeKeyProblem({ path: ['__proto__'] }) : undefined;
  if (problem) ctx.addIssue({ code: 'custom', path: ['__proto__'], message: problem, input: inputs });
  return inputs;
}, z.record(z.string(), z.unknown()).default({}));

export const intentRequestSchema = z
  .object({
    task_descriptor: z.string().trim().min(1).max(MAX_TASK_DESCRIPTOR_CHARS),
    inputs: runInputsSchema,
    /** Narrows the caller's trust (never widens it: asking for more is a 403). */
    trust: trustContextSchema.partial().optional(),
    /** A plan record id: run this plan instead of the retrieval's pick. */
    plan_id: z.uuid().optional(),
    /** Same key (for the same principal) → same run; a second run is never started. */
    idempotency_key: idempotencyKeySchema.optional(),
    wait: z.boolean().default(false),
    wait_timeout_ms: z.number().int().min(1).max(MAX_WAIT_MS).default(DEFAULT_WAIT_MS),
  })
  .strict();
export type IntentRequest = z.input<typeof intentRequestSchema>;

export const selectionSchema = z.object({
  confidence: z.number(),
  needs_more: z.boolean(),
  threshold: z.number(),
  /** How the confidence was computed: calibrated P(top plan is right), or the membrane formula. */
  mode: z.enum(SELECTION_MODES).optional(),
  /** The task's verb and what the top plan does instead, when that held the run back. */
  action_conflict: z.object({ task: z.string(), plan: z.array(z.string()), also: z.boolean().optional() }).optional(),
  /** Values the task names where the top plan keeps its own (node, param), when that held the run back. */
  value_conflict: z.array(z.object({ task: z.string(), node: z.string(), param: z.string(), plan: z.string() })).optional(),
});
export type SelectionView = z.infer<typeof selectionSchema>;

export const RUN_VIEW_STATES = ['running', 'succeeded', 'failed', 'cancelled', 'terminated', 'timed_out', 'unknown'] as const;
export type RunViewState = (typeof RUN_VIEW_STATES)[number];

/** The plan_runs row of a run: Postgres' record of it and its counted outcome. */
export const runRowSchema = z.object({
  workflow_id: z.string(),
  run_id: z.string(),
  plan_id: z.string(),
  plan_revision: z.number(),
  status: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  latency_ms: z.number().nullable(),
  error: nodeErrorSchema.nullable(),
  /** The workflow id of the run this one resumes; null for a fresh run. */
  resumed_from: z.string().nullable().default(null),
});

/** A run as `GET /v1/runs/:workflow_id` answers it. */
export const runViewSchema = z.object({
  workflow_id: z.string(),
  run_id: z.string(),
  plan_id: z.string(),
  state: z.enum(RUN_VIEW_STATES),
  started_at: z.string(),
  closed_at: z.string().nullable(),
  /** Live per-node status from the `status` query, while the run is running. */
  status: runStatusSchema.optional(),
  /** Why the live status is missing (e.g. no worker answered the query in time). */
  status_error: z.string().optional(),
  /** Every node's final state and output, once the run is done (failed runs included). */
  result: runStatusSchema.optional(),
  error: nodeErrorSchema.optional(),
  record: runRowSchema.nullable(),
  ui_url: z.string(),
});
export type RunView = z.infer<typeof runViewSchema>;

/** `POST /v1/intents` success: the run that was started (or found, for a repeated key). */
export const intentResponseSchema = z.object({
  workflow_id: z.string(),
  run_id: z.string(),
  plan_id: z.string(),
  /** How the plan was chosen: the retrieval's pick or the caller's `plan_id`. */
  selected_by: z.enum(['retrieval', 'plan_id']),
  /** The retrieval's verdict; null when the caller named the plan. */
  selection: selectionSchema.nullable(),
  ui_url: z.string(),
  /** True when an idempotency key matched a run started earlier: nothing new was started. */
  existing: z.boolean(),
  /** The plan named by `plan_id` was superseded or merged: the active plan that replaced it (the named one ran). */
  superseded_by: z.string().optional(),
  /** With `wait`: the run when it finished or when the wait ran out. */
  run: runViewSchema.optional(),
});
export type IntentResponse = z.infer<typeof intentResponseSchema>;

export const cancelResponseSchema = z.object({
  workflow_id: z.string(),
  run_id: z.string(),
  cancel_requested: z.literal(true),
});
export type CancelResponse = z.infer<typeof cancelResponseSchema>;
