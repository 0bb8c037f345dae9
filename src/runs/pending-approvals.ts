/**
 * What waits for a person across runs: the newest running runs the caller may run (from
 * plan_runs, the same trust filter as GET /v1/runs), each asked for its `waiting_for` by the
 * status query. No workflow keeps a searchable flag for this, so it costs one query per running
 * run inspected, bounded by `limit`.
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { approvalWaitSchema } from '../domain/approval-schemas';
import { effectiveTrust, type Principal } from '../domain/principal';
import { statusQuery } from '../domain/run-state';
import type { RunLister } from '../store/run-list';
import { decimalInteger } from '../domain/decimal-integer';

/** How long one run's status query may take before that run is left out. */
const STATUS_QUERY_TIMEOUT_MS = 5_000;

export const pendingApprovalsQuerySchema = z
  .object({ limit: decimalInteger(1, 200).default(50) })
  .strict();

export const pendingApprovalsSchema = z.object({
  /** Running runs inspected (the newest `limit`). */
  inspected: z.number(),
  items: z.array(
    z.object({
      workflow_id: z.string(),
      plan_id: z.string(),
      intent: z.string(),
      waiting_for: z.array(approvalWaitSchema),
    }),
  ),
});
export type PendingApprovals = z.infer<typeof pendingApprovalsSchema>;

export function createPendingApprovals(deps: { client: Client; lister: Pick<RunLister, 'list'> }) {
  return {
    /** Runs (newest first) with at least one open wait, among the newest `limit` running runs. */
    async list(principal: Principal, limit = 50): Promise<PendingApprovals> {
      const runs = await deps.lister.list({ state: 'running', limit }, effectiveTrust(principal));
      const items = await Promise.all(
        runs.items.map(async (run) => {
          const status = await deps.client.connection
            .withDeadline(Date.now() + STATUS_QUERY_TIMEOUT_MS, () => deps.client.workflow.getHandle(run.workflow_id).query(statusQuery))
            .catch(() => undefined); // closed meanwhile, or no worker answered: nothing to show
          const waits = status?.waiting_for ?? [];
          return waits.length > 0 ? { workflow_id: run.workflow_id, plan_id: run.plan_id, intent: run.intent, waiting_for: waits } : undefined;
        }),
      );
      return { inspected: runs.items.length, items: items.filter((i) => i !== undefined) };
    },
  };
}

export type PendingApprovalsReader = ReturnType<typeof createPendingApprovals>;
