/**
 * Wire schemas of memory records (docs/concepts.md#memory-records). These zod schemas are the single source of the
 * TypeScript types used by the API, the stores and the workflows.
 */
import { z } from 'zod';
import { MAX_JSON_DEPTH, textProblem, tooDeepPath, unstorablePath } from './json-limits';
import { DURATION_PATTERN, durationMs, NODE_EXECUTIONS } from './node-execution';
import { timestamptzSchema } from './timestamps';

import { SENSITIVITIES } from './sensitivity';

export { SENSITIVITIES, isSensitivity, sensitivityRank, type Sensitivity } from './sensitivity';
export const sensitivitySchema = z.enum(SENSITIVITIES);

export const MEMORY_TYPES = ['episodic', 'plan_graph', 'competence'] as const;

/** The tag of every record consolidation learned (plans and competences). */
export const CONSOLIDATED_TAG = 'consolidated';
export const memoryTypeSchema = z.enum(MEMORY_TYPES);

/** A record type with its article, for messages: "an episodic", "a plan_graph". */
export const aRecordType = (type: string) => `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;
export type MemoryType = z.infer<typeof memoryTypeSchema>;

export const RELATION_PREDICATES = ['derived_from', 'supersedes', 'contested_by', 'forked_from', 'merged_from'] as const;
export const relationSchema = z.object({
  predicate: z.enum(RELATION_PREDICATES),
  target_id: z.uuid(),
  weight: z.number().default(1),
});
export type Relation = z.infer<typeof relationSchema>;

/** Any JSON value, nested at most MAX_JSON_DEPTH levels so nothing recursive overflows on it. */
const boundedJson = z.unknown().superRefine((value, ctx) => {
  const path = tooDeepPath(value);
  if (path) ctx.addIssue({ code: 'custom', path: path as Array<string | number>, message: `nested deeper than ${MAX_JSON_DEPTH} levels` });
});
const jsonObject = z.record(z.string(), boundedJson);

/**
 * Refuses, naming the field, any string or number in a value that Postgres could not store as
 * given (NUL, lone surrogates, numbers beyond double range; see json-limits.ts).
 */
function storable(value: unknown, ctx: z.RefinementCtx): void {
  const problem = unstorablePath(value);
  if (problem) ctx.addIssue({ code: 'custom', path: problem.path as Array<string | number>, message: problem.message });
}

/** Text that can be stored as given. */
export const storableText = z.string().superRefine((value, ctx) => {
  const message = textProblem(value);
  if (message) ctx.addIssue({ code: 'custom', message });
});
/** The latest instant a JavaScript Date holds (and past Postgres's years too): epoch milliseconds. */
const MAX_EPOCH_MS = 8.64e15;
/**
 * A point in time on the wire: ISO-8601 text or whole epoch milliseconds, each one a Date and
 * Postgres can hold (a run's latency learned from a timeline is the difference of two of them).
 */
const instant = z.union([timestamptzSchema, z.number().int().nonnegative().max(MAX_EPOCH_MS)], {
  // Zod's own "Invalid input" would not say that text without an offset is the problem.
  error: 'must be ISO-8601 text with an offset ("2025-05-01T10:00:00Z") or whole epoch milliseconds',
});

// ---------- episodic ----------
export const timelineEventSchema = z.strictObject({
  t: instant,
  event_kind: z.string(),
  ref: z.string().optional(),
  summary: z.string().optional(),
});
export const toolNodeSchema = z.strictObject({
  id: z.string().min(1),
  tool: z.string().min(1),
  args: jsonObject.default({}),
  result: boundedJson.optional(),
  timestamp: instant.optional(),
  depends_on: z.array(z.string()).default([]),
});
export const episodicPayloadSchema = z.strictObject({
  kind: z.literal('episodic'),
  timeline: z.array(timelineEventSchema).default([]),
  tool_graph: z.array(toolNodeSchema).default([]),
  outcome: z.enum(['success', 'failure', 'partial']),
  environment: jsonObject.optional(),
}).superRefine(storable);
export type EpisodicPayload = z.infer<typeof episodicPayloadSchema>;
export type ToolNode = z.infer<typeof toolNodeSchema>;

// ---------- plan graph ----------
// Positive, as graph.ts also checks for plans stored before: Temporal reads a zero timeout as "not set".
const durationSchema = z
  .union([z.string().max(32).regex(DURATION_PATTERN, 'expected a duration such as "250ms", "1.5s", "5m", "2h" or "1d"'), z.number().positive().finite()])
  // Malformed strings and non-positive numbers have their issue already: one issue per mistake.
  .refine((d) => typeof d !== 'string' || !(durationMs(d) <= 0), 'a duration must be longer than zero');
export const retryPolicySchema = z.strictObject({
  maximum_attempts: z.number().int().min(1).max(100).optional(),
  initial_interval: durationSchema.optional(),
  backoff_coefficient: z.number().min(1).max(10).optional(),
  maximum_interval: durationSchema.optional(),
  non_retryable_error_types: z.array(z.string()).optional(),
});
export const nodePolicySchema = z.strictObject({
  retry: retryPolicySchema.optional(),
  start_to_close_timeout: durationSchema.optional(),
  schedule_to_close_timeout: durationSchema.optional(),
  heartbeat_timeout: durationSchema.optional(),
  continue_on_error: z.boolean().optional(),
  task_queue: z.string().min(1).optional(),
  /** Run as a Temporal activity or as a local activity; by default, as the op declares (node-execution.ts). */
  execution: z.enum(NODE_EXECUTIONS).optional(),
});
export type NodePolicy = z.infer<typeof nodePolicySchema>;
export type Duration = z.infer<typeof durationSchema>;

export const planNodeSchema = z.strictObject({
  id: z.string(),
  op: z.string().min(1),
  params: jsonObject.default({}),
  /** A guard expression (see guards.ts); `{}`, the default, means "always run". Its depth is bounded by checkGuard (invalid_guard). */
  guards: z.record(z.string(), z.unknown()).default({}),
  policy: nodePolicySchema.optional(),
  /** Makes the node a map: one `{{ref}}` to an array, run once per item (map-node.ts). */
  for_each: z.string().optional(),
});
export type PlanNode = z.infer<typeof planNodeSchema>;

export const EDGE_KINDS = ['data', 'control'] as const;
export const planEdgeSchema = z.strictObject({
  from: z.string(),
  to: z.string(),
  kind: z.enum(EDGE_KINDS),
});
export type PlanEdge = z.infer<typeof planEdgeSchema>;

export const planConstraintsSchema = z
  .object({
    failure_policy: z.enum(['fail_fast', 'continue']).default('fail_fast'),
    max_parallelism: z.number().int().min(1).max(1000).optional(),
    timeout: durationSchema.optional(),
    max_sensitivity: sensitivitySchema.optional(),
    requires_authenticated: z.boolean().optional(),
  })
  .catchall(boundedJson);
export type PlanConstraints = z.infer<typeof planConstraintsSchema>;

export const planMetricsSchema = z.strictObject({
  execution_count: z.number().int().nonnegative().default(0),
  failure_rate: z.number().min(0).max(1).default(0),
  avg_latency_ms: z.number().nonnegative().default(0),
  last_executed_at: z.string().nullable().default(null),
});
export type PlanMetrics = z.infer<typeof planMetricsSchema>;

export const planGraphPayloadSchema = z.strictObject({
  kind: z.literal('plan_graph'),
  plan_id: z.string().min(1),
  version: z.string().default('1'),
  intent: z.string().min(1),
  /** What the plan does in an agent's own words; part of its searchable text. */
  description: z.string().max(2000).optional(),
  /** Task phrasings the plan has served (consolidation: its episodes' task summaries); searchable. */
  examples: z.array(z.string().max(2000)).max(100).optional(),
  constraints: planConstraintsSchema.default({ failure_policy: 'fail_fast' }),
  inputs_schema: jsonObject.default({}),
  outputs_schema: jsonObject.default({}),
  nodes: z.array(planNodeSchema).min(1),
  edges: z.array(planEdgeSchema).default([]),
  metrics: planMetricsSchema.default({ execution_count: 0, failure_rate: 0, avg_latency_ms: 0, last_executed_at: null }),
}).superRefine(storable);
export type PlanGraphPayload = z.infer<typeof planGraphPayloadSchema>;
export type PlanGraphPayloadInput = z.input<typeof planGraphPayloadSchema>;

// ---------- competence ----------
export const competencePayloadSchema = z.strictObject({
  kind: z.literal('competence'),
  skill_name: z.string().min(1),
  triggers: z.array(z.strictObject({ signal: z.string(), conditions: jsonObject.optional() })).default([]),
  recipe: z.array(z.strictObject({ step: z.number().int(), tool: z.string() })).default([]),
  required_tools: z.array(z.string()).default([]),
  performance: z.strictObject({
    success_count: z.number().int().nonnegative(),
    failure_count: z.number().int().nonnegative(),
    success_rate: z.number().min(0).max(1),
    avg_latency_ms: z.number().nonnegative(),
    last_used_at: z.string().nullable(),
  }),
  version: z.string().default('1'),
}).superRefine(storable);
export type CompetencePayload = z.infer<typeof competencePayloadSchema>;

export const payloadSchema = z.discriminatedUnion('kind', [
  episodicPayloadSchema,
  planGraphPayloadSchema,
  competencePayloadSchema,
]);
export type Payload = z.infer<typeof payloadSchema>;

/** Fields a caller sets when storing a record; the store assigns ids and timestamps. */
export const recordEnvelopeSchema = z.strictObject({
  sensitivity: sensitivitySchema.default('low'),
  confidence: z.number().min(0).max(1).default(0.5),
  salience: z.number().min(0).default(0),
  scope: storableText.default(''),
  tags: z.array(storableText).default([]),
});

/**
 * A written record's `type`, which a writer may repeat (a memory record has one): it must name the
 * type the route stores, and is then dropped (`withoutType`), since the store sets it.
 */
export const typeEcho = <T extends MemoryType>(type: T) => ({ type: z.literal(type).optional() });
export const withoutType = <B extends { type?: unknown }>({ type: _type, ...body }: B): Omit<B, 'type'> => body;

/** A caller's key that makes a write idempotent (episodes, intents; body field or header). */
export const idempotencyKeySchema = z.string().min(1).max(256);

export const newEpisodeSchema = recordEnvelopeSchema.extend({
  payload: episodicPayloadSchema,
  /**
   * Makes storing idempotent: the same key from the same principal stores the episode once (a
   * retry gets the stored one back; a different episode under the key is a conflict).
   */
  idempotency_key: idempotencyKeySchema.optional(),
});
export type NewEpisode = z.infer<typeof newEpisodeSchema>;
export const newPlanSchema = recordEnvelopeSchema.extend({ payload: planGraphPayloadSchema });
export type NewPlan = z.infer<typeof newPlanSchema>;

export const RECORD_STATUSES = ['active', 'superseded', 'retracted', 'merged'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/** A stored memory record as the API returns it. */
export const memoryRecordSchema = z.object({
  id: z.uuid(),
  type: memoryTypeSchema,
  sensitivity: sensitivitySchema,
  confidence: z.number(),
  salience: z.number(),
  scope: z.string(),
  tags: z.array(z.string()),
  status: z.enum(RECORD_STATUSES),
  revision: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  last_reinforced_at: z.string(),
  payload: payloadSchema,
  relations: z.array(relationSchema),
});
export type MemoryRecord = z.infer<typeof memoryRecordSchema>;

/** The fields a redacted record keeps (trust.ts): ids, type, sensitivity, confidence, scope, tags, timestamps. */
export const redactedRecordSchema = memoryRecordSchema
  .pick({
    id: true,
    type: true,
    sensitivity: true,
    confidence: true,
    scope: true,
    tags: true,
    created_at: true,
    updated_at: true,
    last_reinforced_at: true,
  })
  .strict();
export type RedactedRecord = z.infer<typeof redactedRecordSchema>;

/** Who is asking: the caller's clearance (docs/concepts.md#trust-contexts-and-visibility). */
export const trustContextSchema = z.strictObject({
  max_sensitivity: sensitivitySchema,
  authenticated: z.boolean(),
  scopes: z.array(z.string()).optional(),
});
export type TrustContext = z.infer<typeof trustContextSchema>;
