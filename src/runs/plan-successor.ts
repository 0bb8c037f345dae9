/**
 * A plan named by id runs as named, even once superseded or merged (runs stay pinned to the
 * record they name), and the caller is told which plan replaced it, when it may see that one.
 */
import type { MemoryRecord, TrustContext } from '../domain/records';
import { visibility } from '../domain/trust';
import type { RecordStore } from '../store/records';

/** The id of the active plan that replaced `record`, when there is one `trust` may see whole (no trust: an operator, who sees all). */
export async function visibleSuccessor(records: Pick<RecordStore, 'get' | 'successor'>, record: MemoryRecord, trust?: TrustContext): Promise<string | undefined> {
  if (record.status !== 'superseded' && record.status !== 'merged') return undefined;
  const id = await records.successor(record.id);
  const successor = id ? await records.get(id) : undefined;
  return successor && (!trust || visibility(successor, trust) === 'visible') ? successor.id : undefined;
}
