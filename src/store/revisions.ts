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
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { memoryRecords } from '../db/schema';
import { parsePlanGraph } from '../domain/graph';
import {
  sensitivityRank,
  SENSITIVITIES,
  type MemoryRecord,
  type PlanGraphPayload,
  type Relation,
  type Sensitivity,
  type TrustContext,
} from '../domain/records';
import { structureKey } from '../domain/structure';
import { scopeAllowed, visibility } from '../domain/trust';
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
import { createRecordStore, embeddingText, recordValues } from './records';

/** Scope a merged plan gets when its sources do not share one. */
export const MIXED_SCOPE = 'consolidated:mixed-scope';

/** Who writes: the audit actor, and the trust they write under (omitted = trusted caller). */
export interface WriteContext {
  actor: string;
  trust?: TrustContext;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

interface LockedPlan extends Record<string, unknown> {
  id: string;
  type: string;
  status: MemoryRecord['status'];
  revision: number;
  sensitivity: Sensitivity;
  scope: string;
  confidence: number;
  salience: number;
  tags: string[];
  payload: PlanGraphPayload;
}

const isUuid = (id: string) => z.uuid().safeParse(id).success;

/** The next version label: "3" → "4", anything else gets ".1" appended. */
export function nextVersion(version: string): string {
  return /^\d+$/.test(version) ? String(Number(version) + 1) : `${version}.1`;
}

/** Parses and validates a plan payload, filling in identity fields; 422 with every issue. */
function validPayload(input: unknown, fill: { plan_id?: string; version?: string }): PlanGraphPayload {
  const raw = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const result = parsePlanGraph({ kind: 'plan_graph', ...raw, ...stripUndefined(fill) });
  if (!result.ok) {
    throw new DomainError('invalid_plan', `invalid plan graph: ${result.issues.map((i) => i.message).join('; ')}`, { issues: result.issues });
  }
  return result.plan;
}

function stripUndefined(o: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

const freshPlanId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A caller may only write records it could read in full. */
function assertWritable(envelope: { sensitivity: Sensitivity; scope: string }, trust: TrustContext | undefined): void {
  if (!trust) return;
  if (sensitivityRank(envelope.sensitivity) > sensitivityRank(trust.max_sensitivity)) {
    throw new DomainError('forbidden', `cannot write a "${envelope.sensitivity}" plan with clearance "${trust.max_sensitivity}"`);
  }
  if (!scopeAllowed(envelope.scope, trust.scopes)) throw new DomainError('forbidden', `scope "${envelope.scope}" is not granted to this caller`);
}

/**
 * Locks a plan row for the rest of the transaction and checks that it is an active plan the
 * caller may see, at the expected revision. A concurrent writer waits here, then sees the
 * revision the first one committed and gets its conflict.
 */
async function lockPlan(tx: Tx, id: string, expected: number, trust: TrustContext | undefined): Promise<LockedPlan> {
  const notFound = () => new DomainError('not_found', `no plan ${id}`, { id });
  if (!isUuid(id)) throw notFound();
  const found = await tx.execute<LockedPlan>(sql`SELECT id, type, status, revision, sensitivity, scope, confidence, salience, tags, payload
    FROM memory_records WHERE id = ${id}::uuid FOR UPDATE`);
  const plan = found.rows[0];
  if (!plan) throw notFound();
  const seen = trust ? visibility(plan, trust) : 'visible';
  if (seen === 'invisible') throw notFound();
  if (seen === 'redacted') throw new DomainError('forbidden', `plan ${id} is above this caller's clearance`, { id });
  if (plan.type !== 'plan_graph') {
    const what = plan.type === 'episodic' ? 'an episode (immutable once stored)' : `a ${plan.type}`;
    throw new DomainError('not_a_plan', `record ${id} is ${what}; only plan graphs can be revised`, { id, type: plan.type });
  }
  const current = { id, status: plan.status, current_revision: plan.revision, expected_revision: expected };
  if (plan.status === 'retracted') throw new DomainError('plan_retracted', `plan ${id} is retracted`, current);
  if (plan.status !== 'active') {
    const successor = await tx.execute<{ source_id: string }>(sql`SELECT source_id FROM memory_relations
      WHERE target_id = ${id}::uuid AND predicate IN ('supersedes', 'merged_from') LIMIT 1`);
    throw new DomainError('conflict', `plan ${id} is ${plan.status} (revision ${plan.revision})`, {
      ...current,
      successor_id: successor.rows[0]?.source_id ?? null,
    });
  }
  if (plan.revision !== expected) {
    throw new DomainError('conflict', `plan ${id} is at revision ${plan.revision}, not ${expected}`, current);
  }
  return plan;
}

/** Bumps a locked plan's revision, optionally changing its status and tags; returns the new revision. */
async function bump(tx: Tx, plan: LockedPlan, change: { status?: MemoryRecord['status']; addTag?: string }): Promise<AffectedPlan> {
  const updated = await tx.execute<{ revision: number; status: MemoryRecord['status'] }>(sql`UPDATE memory_records
    SET revision = revision + 1, updated_at = now(), status = ${change.status ?? plan.status},
        tags = CASE WHEN ${change.addTag ?? null}::text IS NULL OR ${change.addTag ?? null}::text = ANY(tags) THEN tags
                    ELSE array_append(tags, ${change.addTag ?? null}::text) END
    WHERE id = ${plan.id}::uuid AND revision = ${plan.revision}
    RETURNING revision, status`);
  const row = updated.rows[0];
  // The row is locked, so this cannot happen unless the lock was skipped: fail loudly, change nothing.
  if (!row) throw new DomainError('conflict', `plan ${plan.id} changed under its lock`, { id: plan.id });
  return { id: plan.id, status: row.status, revision: row.revision };
}

async function audit(tx: Tx, entry: { id: string; action: string; actor: string; reason?: string; revision: number; details?: object }) {
  await tx.execute(sql`INSERT INTO audit_log (record_id, action, actor, reason, revision, details)
    VALUES (${entry.id}::uuid, ${entry.action}, ${entry.actor}, ${entry.reason ?? null}, ${entry.revision},
            ${entry.details ? JSON.stringify(entry.details) : null}::jsonb)`);
}

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
  const twin = await tx.execute<{ id: string }>(sql`SELECT id FROM memory_records
    WHERE type = 'plan_graph' AND status = 'active' AND structure_key = ${key} LIMIT 1`);
  if (twin.rows[0]) {
    throw new DomainError('conflict', `active plan ${twin.rows[0].id} already has this structure (intent, ops and edges); supersede it instead`, {
      existing_plan_id: twin.rows[0].id,
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
  for (const rel of relations) {
    await tx.execute(sql`INSERT INTO memory_relations (source_id, predicate, target_id, weight)
      VALUES (${id}::uuid, ${rel.predicate}, ${rel.target_id}::uuid, ${rel.weight})`);
  }
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
        await audit(tx, { id: newId, action: 'create', actor: ctx.actor, reason: parsed.reason, revision: 1 });
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
        const affected = await bump(tx, old, { status: 'superseded' });
        const newId = await insertPlan(tx, { ...envelope, payload, embedding, embedder: embedderName }, [{ predicate: 'supersedes', target_id: id, weight: 1 }]);
        await audit(tx, { id, action: 'revise', actor: ctx.actor, reason: parsed.reason, revision: affected.revision, details: { operation: 'supersede', superseded_by: newId } });
        await audit(tx, { id: newId, action: 'create', actor: ctx.actor, reason: parsed.reason, revision: 1, details: { operation: 'supersede', supersedes: id } });
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
        await audit(tx, { id: created, action: 'fork', actor: ctx.actor, reason: parsed.reason, revision: 1, details: { forked_from: id, source_revision: source.revision } });
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
          const evidence = await tx.execute(sql`SELECT 1 FROM memory_records WHERE id = ${parsed.evidence_id}::uuid`);
          if (evidence.rows.length === 0) throw new DomainError('not_found', `no evidence record ${parsed.evidence_id}`, { evidence_id: parsed.evidence_id });
          await tx.execute(sql`INSERT INTO memory_relations (source_id, predicate, target_id, weight)
            VALUES (${id}::uuid, 'contested_by', ${parsed.evidence_id}::uuid, 1) ON CONFLICT DO NOTHING`);
        }
        const bumped = await bump(tx, plan, { addTag: 'contested' });
        await audit(tx, { id, action: 'revise', actor: ctx.actor, reason: parsed.reason, revision: bumped.revision, details: { operation: 'contest', evidence_id: parsed.evidence_id ?? null } });
        return bumped;
      });
      return { record: await load(id), affected: [affected] };
    },

    /** Retracts a plan: it is never selected or run again (audit `delete`: a soft delete). */
    async retract(id: string, input: RetractInput, ctx: WriteContext): Promise<WriteResult> {
      const parsed = retractSchema.parse(input);
      const affected = await db.transaction(async (tx) => {
        const plan = await lockPlan(tx, id, parsed.expected_revision, ctx.trust);
        const bumped = await bump(tx, plan, { status: 'retracted' });
        await audit(tx, { id, action: 'delete', actor: ctx.actor, reason: parsed.reason, revision: bumped.revision, details: { operation: 'retract' } });
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
        for (const plan of locked) affected.push(await bump(tx, plan, { status: 'merged' }));
        const newId = await insertPlan(
          tx,
          { ...envelope, payload: draft, embedding, embedder: embedderName },
          locked.map((p) => ({ predicate: 'merged_from' as const, target_id: p.id, weight: 1 })),
        );
        await audit(tx, { id: newId, action: 'merge', actor: ctx.actor, reason: parsed.reason, revision: 1, details: { merged_from: locked.map((p) => p.id) } });
        for (const a of affected) {
          await audit(tx, { id: a.id, action: 'revise', actor: ctx.actor, reason: parsed.reason, revision: a.revision, details: { operation: 'merge', merged_into: newId } });
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
