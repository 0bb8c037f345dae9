/**
 * `plangraph run --task "…"`: an intent submitted by the local operator, answered in the shape
 * the run command prints and follows (the plan record and the run's workflow handle).
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { planExecutorWorkflow } from '../../workflows/plan-executor';
import type { MemoryRecord } from '../domain/records';
import { DomainError } from '../domain/errors';
import type { Services } from '../services';
import { LOCAL_OPERATOR } from '../domain/principal';
import { intentRequestSchema } from './schemas';
import { createIntentComponents } from './wiring';

export interface TaskRunStarted {
  record: MemoryRecord;
  stored: false;
  handle: WorkflowHandle<typeof planExecutorWorkflow>;
}

/** Submits a task as an intent; `needs_more` keeps only each candidate's id, intent and score. */
export async function runTask(services: Services, taskDescriptor: string, inputs: Record<string, unknown>): Promise<TaskRunStarted> {
  const { intents } = createIntentComponents(services);
  let started;
  try {
    started = await intents.submit(LOCAL_OPERATOR, intentRequestSchema.parse({ task_descriptor: taskDescriptor, inputs }));
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'needs_more') throw err;
    const { selection, candidates } = err.details as { selection: unknown; candidates: Array<{ record: MemoryRecord; score: number }> };
    const brief = candidates.map(({ record, score }) => ({
      id: record.id,
      intent: record.payload?.kind === 'plan_graph' ? record.payload.intent : undefined,
      score: Number(score.toFixed(4)),
    }));
    throw new DomainError('needs_more', `${err.message} (run one with --plan-id)`, { selection, candidates: brief });
  }
  const record = await services.records.get(started.plan_id);
  if (!record) throw new DomainError('not_found', `no plan ${started.plan_id}`);
  return { record, stored: false, handle: services.temporal.client.workflow.getHandle(started.workflow_id, started.run_id) };
}
