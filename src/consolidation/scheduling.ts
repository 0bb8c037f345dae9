/**
 * Keeping consolidation scheduled: a cron workflow (default) or a Temporal Schedule
 * (CONSOLIDATION_MODE=schedule), each under one fixed id so starting twice never makes two.
 */
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import type { Config } from '../config';
import type { consolidationWorkflow } from '../../workflows/consolidation';

/** The one id of the cron workflow, of the Schedule, and of the runs the Schedule starts. */
export const CONSOLIDATION_ID = 'plangraph-consolidation';

export type ScheduleConfig = Pick<Config, 'CONSOLIDATION_CRON' | 'CONSOLIDATION_MODE' | 'CONSOLIDATION_PAGE_SIZE' | 'TEMPORAL_TASK_QUEUE'>;

export interface ScheduleState {
  mode: Config['CONSOLIDATION_MODE'];
  id: string;
  /** The cron expression the running schedule was started with. */
  cron: string;
}

export interface EnsureResult extends ScheduleState {
  /** False when one already existed and was kept. */
  started: boolean;
  /** One line for the user, saying what happened. */
  message: string;
}

/** The cron workflow or Schedule that currently exists, if any. */
export async function describeConsolidationSchedule(client: Client, config: Pick<Config, 'CONSOLIDATION_MODE'>): Promise<ScheduleState | undefined> {
  if (config.CONSOLIDATION_MODE === 'schedule') {
    try {
      const description = await client.schedule.getHandle(CONSOLIDATION_ID).describe();
      return { mode: 'schedule', id: CONSOLIDATION_ID, cron: String(description.memo?.cron ?? '') };
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return undefined;
      throw err;
    }
  }
  try {
    const handle = client.workflow.getHandle(CONSOLIDATION_ID);
    const description = await handle.describe();
    if (description.status.name !== 'RUNNING') return undefined;
    // The describe response has no cron field; the run's first event holds the schedule it keeps.
    const history = await client.workflowService.getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId: CONSOLIDATION_ID, runId: description.runId },
      maximumPageSize: 1,
    });
    const cron = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.cronSchedule ?? '';
    return { mode: 'cron', id: CONSOLIDATION_ID, cron };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

function kept(state: ScheduleState, config: ScheduleConfig): EnsureResult {
  const drift = state.cron !== config.CONSOLIDATION_CRON ? ` (CONSOLIDATION_CRON is now "${config.CONSOLIDATION_CRON}"; delete the old one to change it)` : '';
  const what = state.mode === 'schedule' ? 'Schedule' : 'cron workflow';
  return { ...state, started: false, message: `consolidation ${what} "${state.id}" already exists with cron "${state.cron}"; kept it${drift}` };
}

/** Starts the consolidation cron workflow or Schedule unless it exists; says which happened. */
export async function ensureConsolidationSchedule(client: Client, config: ScheduleConfig): Promise<EnsureResult> {
  const cron = config.CONSOLIDATION_CRON;
  const args: Parameters<typeof consolidationWorkflow> = [{ page_size: config.CONSOLIDATION_PAGE_SIZE }];
  const state: ScheduleState = { mode: config.CONSOLIDATION_MODE, id: CONSOLIDATION_ID, cron };
  try {
    if (config.CONSOLIDATION_MODE === 'schedule') {
      await client.schedule.create({
        scheduleId: CONSOLIDATION_ID,
        spec: { cronExpressions: [cron] },
        action: { type: 'startWorkflow', workflowType: 'consolidationWorkflow', workflowId: CONSOLIDATION_ID, taskQueue: config.TEMPORAL_TASK_QUEUE, args },
        // A pass still running when the next is due makes the next one pointless.
        policies: { overlap: 'SKIP' },
        memo: { cron },
      });
    } else {
      await client.workflow.start('consolidationWorkflow', {
        workflowId: CONSOLIDATION_ID,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        cronSchedule: cron,
        args,
        memo: { cron },
      });
    }
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError || err instanceof ScheduleAlreadyRunning)) throw err;
    const existing = await describeConsolidationSchedule(client, config);
    return kept(existing ?? state, config);
  }
  const what = config.CONSOLIDATION_MODE === 'schedule' ? 'Schedule' : 'cron workflow';
  return { ...state, started: true, message: `consolidation ${what} "${CONSOLIDATION_ID}" started with cron "${cron}"` };
}
