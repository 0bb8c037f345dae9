/**
 * Wire schemas of a run's status (the `status` query's answer and the workflow's result), the
 * single source of its types: the executor, the API's run view and the client share them.
 * Workflow code imports only their types (run-state.ts), never this module's values.
 */
import { z } from 'zod';
import { approvalDecisionSchema, approvalWaitSchema } from './approval-schemas';
import { NODE_EXECUTIONS } from './node-execution';
import { NODE_STATES, RUN_STATES } from './run-state';

/** A run's workflow id or a node id as a caller names it; Temporal's own default limit on ids. */
export const temporalIdSchema = z.string().min(1, 'must not be empty').max(1_000, 'must be at most 1,000 characters');

export const nodeErrorSchema = z.object({ type: z.string(), message: z.string() });
export type NodeError = z.infer<typeof nodeErrorSchema>;

export const nodeStatusSchema = z.object({
  id: z.string(),
  op: z.string(),
  state: z.enum(NODE_STATES),
  attempts: z.number(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  /** How a started node ran: as an activity, or as a local activity of the executor's worker. */
  execution: z.enum(NODE_EXECUTIONS).optional(),
  /** Why a node was skipped or cancelled. */
  reason: z.string().optional(),
  error: nodeErrorSchema.optional(),
  output: z.unknown().optional(),
  /**
   * Set instead of `output` when the run's outputs together would outgrow Temporal's payload
   * limit (src/domain/payload-size.ts): the output's size; it is in the run's history.
   */
  output_omitted: z.object({ bytes: z.number() }).optional(),
  /** An approval node's prompt. */
  prompt: z.string().optional(),
  /** A node of a resumed run that was not run again: the workflow id of the run whose output it reuses. */
  reused_from: z.string().optional(),
  /** A map node's items: how many, and how many succeeded and failed so far. */
  items: z
    .object({ total: z.number(), succeeded: z.number(), failed: z.number(), failed_indexes: z.array(z.number()) })
    .optional(),
  /** A sub-plan node's child run and the plan it was pinned to. */
  sub_plan: z.object({ workflow_id: z.string(), plan_record_id: z.string(), plan_revision: z.number() }).optional(),
});
export type NodeStatus = z.infer<typeof nodeStatusSchema>;

export const partitionedStatusSchema = z.object({
  partition: z.number(),
  partitions: z.number(),
  partition_size: z.number(),
  node_count: z.number(),
  counts: z.record(z.string(), z.number()),
  /** One code per node in the plan's topological order: p r s f k c, and t for a tolerated failure. */
  node_states: z.string(),
});

/**
 * The `status` query's answer, and (when terminal) the workflow result: declared once here, so
 * the executor, the API's run view and the client cannot drift apart.
 */
export const runStatusSchema = z.object({
  plan_record_id: z.string(),
  plan_revision: z.number(),
  plan_id: z.string(),
  intent: z.string(),
  state: z.enum(RUN_STATES),
  started_at: z.string(),
  finished_at: z.string().optional(),
  latency_ms: z.number().optional(),
  error: nodeErrorSchema.optional(),
  nodes: z.array(nodeStatusSchema),
  /** Open approval waits (approval nodes and the run gate), oldest first. */
  waiting_for: z.array(approvalWaitSchema).optional(),
  /** Decisions made on this run's waits, in order. */
  approvals: z.array(approvalDecisionSchema).optional(),
  /** The workflow id of the run this one resumes. */
  resumed_from: z.string().optional(),
  /**
   * Set for a partitioned run: `nodes` then holds the current (or last) partition's nodes and
   * the first failures; every node's state is one character of `node_states`.
   */
  partitioned: partitionedStatusSchema.optional(),
});
export type RunStatus = z.infer<typeof runStatusSchema>;
