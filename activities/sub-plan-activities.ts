/**
 * Pins a run's sub-plans before it starts (docs/execution.md#sub-plans): walks every plan reachable
 * through sub-plan nodes under the caller's trust, refuses cycles and plans the caller may not
 * run, and returns the record id and revision of each direct sub-plan, recorded in the history.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { PlanNode, TrustContext } from '../src/domain/records';
import { walkSubPlans } from '../src/domain/sub-plan';
import type { PlanSnapshot } from '../src/domain/plan-snapshot';
import type { RecordStore } from '../src/store/records';

export interface PinSubPlansInput {
  record_id: string;
  /** The calling plan's sub-plan nodes. */
  nodes: PlanNode[];
  trust?: TrustContext;
  ancestors?: string[];
}

export function createSubPlanActivities(deps: { records: Pick<RecordStore, 'get'> }) {
  return {
    async pinSubPlans(input: PinSubPlansInput): Promise<Record<string, PlanSnapshot>> {
      const walk = await walkSubPlans({ record_id: input.record_id, payload: { nodes: input.nodes } }, (id) => deps.records.get(id), {
        trust: input.trust,
        ancestors: input.ancestors,
      });
      if (!walk.ok) throw ApplicationFailure.create({ type: walk.type, message: walk.message, nonRetryable: true });
      return walk.pins;
    },
  };
}
