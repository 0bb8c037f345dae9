/**
 * Optimistic locking of plan writes (docs/concepts.md#revisions-and-relations): every write to
 * an existing plan names the revision it expects, locks the row, and fails with `conflict`
 * naming the current revision when another writer got there first.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memoryRecords, memoryRelations } from '../db/schema';
import { DomainError } from '../domain/errors';
import type { MemoryRecord, PlanGraphPayload, Sensitivity, TrustContext } from '../domain/records';
import { visibility } from '../domain/trust';
import type { AffectedPlan } from '../domain/revision-requests';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface LockedPlan {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Locks a plan row for the rest of the transaction and checks that it is an active plan the
 * caller may see, at the expected revision. A concurrent writer waits here, then sees the
 * revision the first one committed and gets its conflict.
 */
export async function lockPlan(tx: Tx, id: string, expected: number, trust: TrustContext | undefined): Promise<LockedPlan> {
  const notFound = () => new DomainError('not_found', `no plan ${id}`, { id });
  if (!UUID.test(id)) throw notFound();
  const [row] = await tx
    .select({
      id: memoryRecords.id,
      type: memoryRecords.type,
      status: memoryRecords.status,
      revision: memoryRecords.revision,
      sensitivity: memoryRecords.sensitivity,
      scope: memoryRecords.scope,
      confidence: memoryRecords.confidence,
      salience: memoryRecords.salience,
      tags: memoryRecords.tags,
      payload: memoryRecords.payload,
    })
    .from(memoryRecords)
    .where(eq(memoryRecords.id, id))
    .for('update');
  if (!row) throw notFound();
  const plan = row as LockedPlan;
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
    throw new DomainError('conflict', `plan ${id} is ${plan.status} (revision ${plan.revision})`, {
      ...current,
      successor_id: await successorId(tx, id),
    });
  }
  if (plan.revision !== expected) {
    throw new DomainError('conflict', `plan ${id} is at revision ${plan.revision}, not ${expected}`, current);
  }
  return plan;
}

/** The plan that superseded or merged a no-longer-active plan, or null when none is recorded. */
export async function successorId(tx: Pick<Tx, 'select'>, id: string): Promise<string | null> {
  const [successor] = await tx
    .select({ sourceId: memoryRelations.sourceId })
    .from(memoryRelations)
    .where(and(eq(memoryRelations.targetId, id), inArray(memoryRelations.predicate, ['supersedes', 'merged_from'])))
    .limit(1);
  return successor?.sourceId ?? null;
}

/** Bumps a locked plan's revision, optionally changing its status and adding a tag. */
export async function bumpRevision(tx: Tx, plan: LockedPlan, change: { status?: MemoryRecord['status']; addTag?: string }): Promise<AffectedPlan> {
  const tags = change.addTag && !plan.tags.includes(change.addTag) ? [...plan.tags, change.addTag] : plan.tags;
  const [row] = await tx
    .update(memoryRecords)
    .set({ revision: sql`${memoryRecords.revision} + 1`, updatedAt: sql`now()`, status: change.status ?? plan.status, tags })
    .where(and(eq(memoryRecords.id, plan.id), eq(memoryRecords.revision, plan.revision)))
    .returning({ revision: memoryRecords.revision, status: memoryRecords.status });
  // The row is locked, so this cannot happen unless the lock was skipped: fail loudly, change nothing.
  if (!row) throw new DomainError('conflict', `plan ${plan.id} changed under its lock`, { id: plan.id });
  return { id: plan.id, status: row.status as MemoryRecord['status'], revision: row.revision };
}
