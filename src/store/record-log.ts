/**
 * The two append-only companions of a record write: its relations to other records and its
 * audit entries. Callers pass their transaction so both commit or roll back with the write.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, memoryRelations } from '../db/schema';
import type { Relation } from '../domain/records';

/** The database or a transaction of it. */
export type Writer = Pick<Db, 'insert' | 'select'>;

export interface AuditEntry {
  id: string;
  action: string;
  actor: string;
  reason?: string | null;
  revision: number;
  details?: object | null;
}

/** Appends one audit entry for a record. */
export async function appendAudit(db: Writer, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    recordId: entry.id,
    action: entry.action,
    actor: entry.actor,
    reason: entry.reason ?? null,
    revision: entry.revision,
    details: entry.details ?? null,
  });
}

/** The audit entries of a record, oldest first. */
export function auditTrail(db: Writer, id: string) {
  return db
    .select({ action: auditLog.action, actor: auditLog.actor, reason: auditLog.reason, revision: auditLog.revision, at: auditLog.at })
    .from(auditLog)
    .where(eq(auditLog.recordId, id))
    .orderBy(asc(auditLog.id));
}

/** Links a record to others; a relation that already exists is kept as it is. */
export async function insertRelations(db: Writer, sourceId: string, relations: Relation[]): Promise<void> {
  if (relations.length === 0) return;
  await db
    .insert(memoryRelations)
    .values(relations.map((r) => ({ sourceId, predicate: r.predicate, targetId: r.target_id, weight: r.weight })))
    .onConflictDoNothing();
}
