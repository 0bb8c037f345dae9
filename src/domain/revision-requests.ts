/**
 * The wire shapes of plan writes (docs/concepts.md#revisions-and-relations): what a caller sends
 * to author, supersede, fork, contest, retract or merge a plan, and what every write answers.
 * Shared by the HTTP routes, the TypeScript client, the MCP server and the revision store.
 */
import { z } from 'zod';
import { memoryRecordSchema, RECORD_STATUSES, recordEnvelopeSchema, sensitivitySchema, storableText } from './records';

const expectedRevision = z.number().int().min(1);
const reason = storableText.max(2000).optional();
/** Envelope fields a revision may set; unset ones are inherited from the source plan(s). */
const overrides = {
  sensitivity: sensitivitySchema.optional(),
  confidence: z.number().min(0).max(1).optional(),
  salience: z.number().min(0).optional(),
  scope: storableText.optional(),
  tags: z.array(storableText).optional(),
};

export const authorPlanSchema = recordEnvelopeSchema.extend({ payload: z.unknown(), reason });
export const supersedeSchema = z.strictObject({ expected_revision: expectedRevision, payload: z.unknown(), reason, ...overrides });
export const forkSchema = supersedeSchema;
export const contestSchema = z.strictObject({
  expected_revision: expectedRevision,
  reason: storableText.min(1).max(2000),
  /** A record (e.g. a failed episode or a rival plan) that contests this plan. */
  evidence_id: z.uuid().optional(),
});
export const retractSchema = z.strictObject({ expected_revision: expectedRevision, reason });
export const mergeSchema = z.strictObject({
  sources: z
    .array(z.strictObject({ id: z.uuid(), expected_revision: expectedRevision }))
    .min(2)
    // A UUID names the same plan in either case.
    .refine((s) => new Set(s.map((x) => x.id.toLowerCase())).size === s.length, 'sources must be distinct plans'),
  payload: z.unknown(),
  reason,
  ...overrides,
});
export type AuthorPlanInput = z.input<typeof authorPlanSchema>;
export type SupersedeInput = z.input<typeof supersedeSchema>;
export type ForkInput = z.input<typeof forkSchema>;
export type ContestInput = z.input<typeof contestSchema>;
export type RetractInput = z.input<typeof retractSchema>;
export type MergeInput = z.input<typeof mergeSchema>;

/** A plan whose status or revision a write changed. */
export const affectedPlanSchema = z.object({ id: z.uuid(), status: z.enum(RECORD_STATUSES), revision: z.number().int() });
export type AffectedPlan = z.infer<typeof affectedPlanSchema>;

/** What every plan write answers: the record written and every plan whose status or revision changed. */
export const writeResultSchema = z.object({ record: memoryRecordSchema, affected: z.array(affectedPlanSchema) });
export type WriteResult = z.infer<typeof writeResultSchema>;
