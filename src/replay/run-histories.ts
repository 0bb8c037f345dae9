/**
 * Histories of runs on a Temporal server: one run by workflow id, or every closed run a
 * visibility query matches.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { DomainError } from '../domain/errors';
import type { ReplayTarget } from './replay';

type RunTarget = ReplayTarget & { workflowId: string; runId: string };

/** The history of one run (the latest run of the workflow id when no run id is given). */
export async function fetchRunHistory(client: Client, workflowId: string, runId?: string): Promise<RunTarget> {
  const handle = client.workflow.getHandle(workflowId, runId);
  try {
    const { runId: resolvedRunId } = await handle.describe();
    return { workflowId, runId: resolvedRunId, history: await handle.fetchHistory() };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      throw new DomainError('not_found', `no workflow run ${workflowId}${runId ? ` (run ${runId})` : ''} in namespace ${client.options.namespace}`, { workflowId, runId });
    }
    throw err;
  }
}

/** The visibility query for the closed runs among those `query` matches. */
export function closedRunsQuery(query?: string): string {
  const closed = `ExecutionStatus != 'Running'`;
  return query?.trim() ? `(${query.trim()}) AND ${closed}` : closed;
}

/** Histories of every closed run matching a visibility query (e.g. `PlanId='…'`), fetched one at a time. */
export async function* closedRunHistories(client: Client, query?: string): AsyncGenerator<RunTarget> {
  for await (const execution of client.workflow.list({ query: closedRunsQuery(query) })) {
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    yield { workflowId: execution.workflowId, runId: execution.runId, history };
  }
}
