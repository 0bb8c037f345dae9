/**
 * Trust filtering (docs/concepts.md#trust-contexts-and-visibility): what a caller with a given clearance may see of a record —
 * all of it, a redacted envelope (exactly one sensitivity level above), or nothing.
 */
import { DomainError } from './errors';
import type { MemoryRecord, PlanGraphPayload, RedactedRecord, TrustContext } from './records';
import { isSensitivity, sensitivityRank, type Sensitivity } from './sensitivity';

export type Visibility = 'visible' | 'redacted' | 'invisible';

/** Whether a record's scope is open to a caller: "" always is; no scopes means any. */
export function scopeAllowed(scope: string, scopes: readonly string[] | undefined): boolean {
  return scope === '' || scopes === undefined || scopes.includes(scope);
}

/**
 * Visibility by sensitivity alone: ≤ max visible, max+1 redacted, beyond invisible. A level off
 * the scale, on either side, is invisible: an unknown value must fail closed, not rank lowest.
 */
export function sensitivityVisibility(sensitivity: Sensitivity, maxSensitivity: Sensitivity): Visibility {
  if (!isSensitivity(sensitivity) || !isSensitivity(maxSensitivity)) return 'invisible';
  const above = sensitivityRank(sensitivity) - sensitivityRank(maxSensitivity);
  return above <= 0 ? 'visible' : above === 1 ? 'redacted' : 'invisible';
}

/** What a caller sees of a record: scope mismatch hides it whatever its sensitivity. */
export function visibility(record: { sensitivity: Sensitivity; scope: string }, trust: TrustContext): Visibility {
  if (!scopeAllowed(record.scope, trust.scopes)) return 'invisible';
  return sensitivityVisibility(record.sensitivity, trust.max_sensitivity);
}

export type { RedactedRecord } from './records';

/** Strips a record down to its redacted envelope (records.ts: redactedRecordSchema). */
export function redact(record: MemoryRecord): RedactedRecord {
  const { id, type, sensitivity, confidence, scope, tags, created_at, updated_at, last_reinforced_at } = record;
  return { id, type, sensitivity, confidence, scope, tags, created_at, updated_at, last_reinforced_at };
}

/**
 * Whether a caller may run a plan, by its constraints: `requires_authenticated` needs an
 * authenticated caller, and `max_sensitivity` (the most sensitive data the plan handles) needs
 * a caller cleared at least that high.
 */
export function runnableBy(plan: Pick<PlanGraphPayload, 'constraints'>, trust: TrustContext): boolean {
  const { requires_authenticated, max_sensitivity } = plan.constraints;
  if (requires_authenticated && !trust.authenticated) return false;
  if (!isSensitivity(trust.max_sensitivity)) return false;
  if (max_sensitivity === undefined) return true;
  return isSensitivity(max_sensitivity) && sensitivityRank(max_sensitivity) <= sensitivityRank(trust.max_sensitivity);
}

/**
 * A caller may only write records it could read in full (omitted trust = a trusted caller). For
 * episodes too: consolidation turns them into plans of the same sensitivity and scope.
 */
export function assertWritable(envelope: { sensitivity: Sensitivity; scope: string }, trust: TrustContext | undefined, what: 'plan' | 'episode' = 'plan'): void {
  if (!trust) return;
  if (sensitivityVisibility(envelope.sensitivity, trust.max_sensitivity) !== 'visible') {
    throw new DomainError('forbidden', `cannot write a "${envelope.sensitivity}" ${what} with clearance "${trust.max_sensitivity}"`, { field: 'sensitivity' });
  }
  if (!scopeAllowed(envelope.scope, trust.scopes)) throw new DomainError('forbidden', `scope "${envelope.scope}" is not granted to this caller`, { field: 'scope' });
}
