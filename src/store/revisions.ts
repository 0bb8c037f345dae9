/**
 * Plan writes with optimistic locking (docs/concepts.md#revisions-and-relations): author, supersede, fork, contest, retract and
 * merge. Each runs in one transaction with its relations and audit entries. Every write to an
 * existing plan names the revision it expects; when another writer got there first it fails
 * with `conflict` naming the current revision. Episodes (and competences) are refused.
 *
 * Superseding creates a NEW record (new id, revision 1) with a `supersedes` relation to the
 * old one, which is marked `superseded` and gets its revision bumped: runs stay pinned to the
 * exact record they started with, and history stays queryable.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memoryRecords } from '../db/schema';
import { parsePlanGraph } from '../domain/graph';
import { inputsSchemaIssues } from '../domain/inputs-schema';
import {
  sensitivityRank,
  SENSITIVITIES,
  type PlanGraphPayload,
  type Relation,
  type Sensitivity,
  type TrustContext,
} from '../domain/records';
import { structureKey } from '../domain/structure';
import { assertWritable } from '../domain/trust';
import type { Embedder } from '../embeddings/embedder';
import { DomainError } from '../domain/errors';
import {
  authorPlanSchema,
  contestSchema,
  forkSchema,
  mergeSchema,
  retractSchema,
  supersedeSchema,
  type AffectedPlan,
  type AuthorPlanInput,
  type ContestInput,
  type ForkInput,
  type MergeInput,
  type RetractInput,
  type SupersedeInput,
  type WriteResult,
} from '../domain/revision-requests';
import { bumpRevision, lockPlan, type LockedPlan, type Tx } from './plan-lock';
import { appendAudit, insertRelations } from './record-log';
import { createRecordStore, embeddingText, recordValues } from './records';

/** Scope a merged plan gets when its sources do not share one. */
export const MIXED_SCOPE = 'consolidated:mixed-scope';

/** Who writes: the audit actor, and the trust they write under (omitted = trusted caller). */
export interface WriteContext {
  actor: string;
  trust?: TrustContext;
}

/** The next version label: "3" → "4", anything else gets ".1" appended. */
export function nextVersion(version: string): string {
  return /^\d+$/.test(version) ? String(Number(version) + 1) : `${version}.1`;
}

/** Parses and validates a plan payload, filling in identity fields; 422 with every issue. */
function validPayload(input: unknown, fill: { plan_id?: string; version?: string }): PlanGraphPayload {
  const raw = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  // An inputs_schema that does not compile is refused here: stored, it would fail every run.
  const result = parsePlanGraph({ kind: 'plan_graph', ...raw, ...stripUndefined(fill) }, { inputsSchemaIssues, startChecks: true });
  if (!result.ok) {
    throw new DomainError('invalid_plan', `invalid plan graph: ${result.issues.map((i) => i.message).join('; ')}`, { issues: result.issues });
  }
  return result.plan;
}

function stripUndefined(o: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

const freshPlanId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

interface NewPlanRecord {
  payload: PlanGraphPayload;
  sensitivity: Sensitivity;
  confidence: number;
  salience: number;
  scope: string;
  tags: string[];
  embedding: number[] | null;
  embedder?: string | null;
}

/** Inserts a plan with its relations; a twin of an active plan's structure is a conflict. */
async function insertPlan(tx: Tx, plan: NewPlanRecord, relations: Relation[]): Promise<string> {
  const key = structureKey(plan.payload);
  const [twin] = await tx
    .select({ id: memoryRecords.id })
    .from(memoryRecords)
    .where(and(eq(memoryRecords.type, 'plan_graph'), eq(memoryRecords.status, 'active'), eq(memoryRecords.structureKey, key)))
    .limit(1);
  if (twin) {
    throw new DomainError('conflict', `active plan ${twin.id} already has this structure (intent, ops and edges); supersede it instead`, {
      existing_plan_id: twin.id,
    });
  }
  const [row] = await tx
    .insert(memoryRecords)
    .values(recordValues({ type: 'plan_graph', ...plan }))
    .returning({ id: memoryRecords.id })
    .catch((err: { code?: string; cause?: { code?: string } }) => {
      if ((err.cause?.code ?? err.code) === '23505') throw new DomainError('conflict', 'an active plan with this structure was just created', {});
      throw err;
    });
  const id = row!.id;
  await insertRelations(tx, id, relations);
  return id;
}

const highest = (levels: Sensitivity[]) => SENSITIVITIES[Math.max(...levels.map(sensitivityRank))]!;

/** Creates the revision store over a database and an optional embedder. */
export function createRevisionStore(db: Db, embedder?: Embedder) {
  const records = createRecordStore(db);
  const embedderName = embedder?.name ?? null;
  const embed = async (payload: PlanGraphPayload) => (embedder ? ((await embedder.embed([embeddingText(payload)]))[0] ?? null) : null);
  const load = async (id: string) => (await records.get(id))!;

  return {
    /** Stores a hand-authored plan, fully validated (422 with every issue). */
    async create(input: AuthorPlanInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = authorPlanSchema.parse(input);
      const payload = validPayload(parsed.payload, {});
      assertWritable(parsed, ctx.trust);
      const embedding = await embed(payload);
      const id = await db.transaction(async (tx) => {
        const newId = await insertPlan(tx, { ...parsed, payload, embedding, embedder: embedderName }, []);
        await appendAudit(tx, { id: newId, action: 'create', actor: ctx.actor, reason: parsed.reason, revision: 1 });
        return newId;
      });
      return { record: await load(id), affected: [] };
    },

    /** Replaces a plan by a new record that `supersedes` it; the old one becomes `superseded`. */
    async supersede(id: string, input: SupersedeInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = supersedeSchema.parse(input);
      const draft = validPayload(parsed.payload, { plan_id: 'pending' });
      const embedding = await embed(draft);
      const result = await db.transaction(async (tx) => {
        const old = await lockPlan(tx, id, parsed.expected_revision, ctx.trust);
        const rawVersion = (parsed.payload as { version?: unknown } | null)?.version;
        const version = rawVersion === undefined || rawVersion === old.payload.version ? nextVersion(old.payload.version) : draft.version;
        const payload: PlanGraphPayload = { ...draft, plan_id: old.payload.plan_id, version };
        const envelope = { ...pickEnvelope(old), ...definedEnvelope(parsed) };
        assertWritable(envelope, ctx.trust);
        const affected = await bumpRevision(tx, old, { status: 'superseded' });
        const newId = await insertPlan(tx, { ...envelope, payload, embedding, embedder: embedderName }, [{ predicate: 'supersedes', target_id: id, weight: 1 }]);
        await appendAudit(tx, { id, action: 'revise', actor: ctx.actor, reason: parsed.reason, revision: affected.revision, details: { operation: 'supersede', superseded_by: newId } });
        await appendAudit(tx, { id: newId, action: 'create', actor: ctx.actor, reason: parsed.reason, revision: 1, details: { operation: 'supersede', supersedes: id } });
        return { newId, affected };
      });
      return { record: await load(result.newId), affected: [result.affected] };
    },

    /** A new, independent plan `forked_from` an active one, which stays as it is. */
    async fork(id: string, input: ForkInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = forkSchema.parse(input);
      const draft = validPayload(parsed.payload, { plan_id: 'pending' });
      const embedding = await embed(draft);
      const newId = await db.transaction(async (tx) => {
        const source = await lockPlan(tx, id, parsed.expected_revision, ctx.trust);
        const rawId = (parsed.payload as { plan_id?: unknown } | null)?.plan_id;
        const planId = typeof rawId === 'string' && rawId && rawId !== source.payload.plan_id ? rawId : freshPlanId(`${source.payload.plan_id}-fork`);
        const envelope = { ...pickEnvelope(source), ...definedEnvelope(parsed) };
        assertWritable(envelope, ctx.trust);
        const created = await insertPlan(tx, { ...envelope, payload: { ...draft, plan_id: planId }, embedding, embedder: embedderName }, [
          { predicate: 'forked_from', target_id: id, weight: 1 },
        ]);
        await appendAudit(tx, { id: created, action: 'fork', actor: ctx.actor, reason: parsed.reason, revision: 1, details: { forked_from: id, source_revision: source.revision } });
        return created;
      });
      return { record: await load(newId), affected: [] };
    },

    /** Marks a plan contested (tag `contested`, optional `contested_by` evidence), bumping its revision. */
    async contest(id: string, input: ContestInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = contestSchema.parse(input);
      const affected = await db.transaction(async (tx) => {
        const plan = await lockPlan(tx, id, parsed.expected_revision, ctx.trust);
        if (parsed.evidence_id) {
          const [evidence] = await tx.select({ id: memoryRecords.id }).from(memoryRecords).where(eq(memoryRecords.id, parsed.evidence_id));
          if (!evidence) throw new DomainError('not_found', `no evidence record ${parsed.evidence_id}`, { evidence_id: parsed.evidence_id });
          await insertRelations(tx, id, [{ predicate: 'contested_by', target_id: parsed.evidence_id, weight: 1 }]);
        }
        const bumped = await bumpRevision(tx, plan, { addTag: 'contested' });
        await appendAudit(tx, { id, action: 'revise', actor: ctx.actor, reason: parsed.reason, revision: bumped.revision, details: { operation: 'contest', evidence_id: parsed.evidence_id ?? null } });
        return bumped;
      });
      return { record: await load(id), affected: [affected] };
    },

    /** Retracts a plan: it is never selected or run again (audit `delete`: a soft delete). */
    async retract(id: string, input: RetractInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = retractSchema.parse(input);
      const affected = await db.transaction(async (tx) => {
        const plan = await lockPlan(tx, id, parsed.expected_revision, ctx.trust);
        const bumped = await bumpRevision(tx, plan, { status: 'retracted' });
        await appendAudit(tx, { id, action: 'delete', actor: ctx.actor, reason: parsed.reason, revision: bumped.revision, details: { operation: 'retract' } });
        return bumped;
      });
      return { record: await load(id), affected: [affected] };
    },

    /** A new plan `merged_from` N active plans, which become `merged`. */
    async merge(input: MergeInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = mergeSchema.parse(input);
      const rawId = (parsed.payload as { plan_id?: unknown } | null)?.plan_id;
      const draft = validPayload(parsed.payload, { plan_id: typeof rawId === 'string' && rawId ? rawId : freshPlanId('merged') });
      const embedding = await embed(draft);
      // Lock in id order so two merges over overlapping plans cannot deadlock.
      const sources = [...parsed.sources].sort((a, b) => a.id.localeCompare(b.id));
      const result = await db.transaction(async (tx) => {
        const locked: LockedPlan[] = [];
        for (const s of sources) locked.push(await lockPlan(tx, s.id, s.expected_revision, ctx.trust));
        const scopes = [...new Set(locked.map((p) => p.scope))];
        const envelope = {
          sensitivity: highest(locked.map((p) => p.sensitivity)),
          confidence: Math.max(...locked.map((p) => Number(p.confidence))),
          salience: Math.max(...locked.map((p) => Number(p.salience))),
          scope: scopes.length === 1 ? scopes[0]! : MIXED_SCOPE,
          tags: [...new Set(locked.flatMap((p) => p.tags))].sort(),
          ...definedEnvelope(parsed),
        };
        assertWritable(envelope, ctx.trust);
        const affected: AffectedPlan[] = [];
        for (const plan of locked) affected.push(await bumpRevision(tx, plan, { status: 'merged' }));
        const newId = await insertPlan(
          tx,
          { ...envelope, payload: draft, embedding, embedder: embedderName },
          locked.map((p) => ({ predicate: 'merged_from' as const, target_id: p.id, weight: 1 })),
        );
        await appendAudit(tx, { id: newId, action: 'merge', actor: ctx.actor, reason: parsed.reason, revision: 1, details: { merged_from: locked.map((p) => p.id) } });
        for (const a of affected) {
          await appendAudit(tx, { id: a.id, action: 'revise', actor: ctx.actor, reason: parsed.reason, revision: a.revision, details: { operation: 'merge', merged_into: newId } });
        }
        return { newId, affected };
      });
      return { record: await load(result.newId), affected: result.affected };
    },
  };
}

export type RevisionStore = ReturnType<typeof createRevisionStore>;

function pickEnvelope(plan: LockedPlan) {
  return { sensitivity: plan.sensitivity, confidence: Number(plan.confidence), salience: Number(plan.salience), scope: plan.scope, tags: plan.tags };
}

/** The envelope fields a caller set explicitly (undefined ones inherit). */
function definedEnvelope(input: Partial<Pick<NewPlanRecord, 'sensitivity' | 'confidence' | 'salience' | 'scope' | 'tags'>>) {
  const { sensitivity, confidence, salience, scope, tags } = input;
  return Object.fromEntries(Object.entries({ sensitivity, confidence, salience, scope, tags }).filter(([, v]) => v !== undefined)) as Partial<
    Pick<NewPlanRecord, 'sensitivity' | 'confidence' | 'salience' | 'scope' | 'tags'>
  >;
}
