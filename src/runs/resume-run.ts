/**
 * Resuming a failed run (docs/api.md#resume): a new run of the old run's pinned plan snapshot
 * (same record and revision, same inputs) that reuses the outputs of the nodes that succeeded
 * and runs only the rest. Refused (409) while the old run runs, when it succeeded, when it ran
 * partitioned, or when its plan record is gone or retracted.
 */
import type { Client } from '@temporalio/client';
import { fromPayloadsAtIndex } from '@temporalio/common';
import { z } from 'zod';
import type { Config } from '../config';
import { DomainError } from '../domain/errors';
import { effectiveTrust, type Principal } from '../domain/principal';
import { isPartitionedRun, type PartitionedRunInput, type PlanRunInput } from '../domain/run-state';
import { runViewState, type RunViewer } from '../intents/run-view';
import type { RecordStore } from '../store/records';
import { finalStatus } from './follow-run';
import { splitForResume } from './resume-plan';
import { startPlanRun } from './start-run';

export const resumeResponseSchema = z.object({
  workflow_id: z.string(),
  run_id: z.string(),
  plan_id: z.string(),
  plan_revision: z.number(),
  /** The run this one resumes. */
  resumed_from: z.string(),
  /** Nodes whose outputs are taken from the old run (not run again). */
  reused: z.array(z.string()),
  /** Nodes the new run runs: those that did not succeed, and what depends on them. */
  rerun: z.array(z.string()),
});
export type ResumeResponse = z.infer<typeof resumeResponseSchema>;

export interface ResumerDeps {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'RUN_INPUT_LIMIT_BYTES'>;
  records: Pick<RecordStore, 'get'>;
  viewer: Pick<RunViewer, 'describe'>;
  knownOps: ReadonlySet<string>;
}

const refuse = (workflowId: string, reason: string, message: string, extra: Record<string, unknown> = {}) =>
  new DomainError('conflict', message, { workflow_id: workflowId, reason, ...extra });

/** The executor input the old run was started with (its first history event), and its first execution's id. */
async function startInput(client: Client, workflowId: string, runId: string): Promise<{ input: PlanRunInput | PartitionedRunInput; firstRunId: string }> {
  const history = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  const started = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = fromPayloadsAtIndex<PlanRunInput | PartitionedRunInput>(client.options.loadedDataConverter.payloadConverter, 0, started?.input?.payloads);
  return { input, firstRunId: started?.firstExecutionRunId || runId };
}

export function createResumer(deps: ResumerDeps) {
  return {
    /** Starts the resumed run of `workflowId` under the caller's trust. */
    async resume(workflowId: string, principal: Principal): Promise<ResumeResponse> {
      const trust = effectiveTrust(principal);
      const { description } = await deps.viewer.describe(workflowId, trust);
      const state = runViewState(description);
      if (state === 'running') throw refuse(workflowId, 'still_running', `run ${workflowId} is still running: cancel it or wait for it to end before resuming`, { state });
      if (state === 'succeeded') throw refuse(workflowId, 'succeeded', `run ${workflowId} succeeded: there is nothing to resume`, { state });
      const handle = deps.client.workflow.getHandle(workflowId, description.runId);
      const { input, firstRunId } = await startInput(deps.client, workflowId, description.runId);
      // Its earlier partitions' outputs were dropped once no later node read them: nothing to reuse them from.
      if (isPartitionedRun(input)) {
        throw refuse(workflowId, 'partitioned', `run ${workflowId} ran partitioned (${input.partitioned.node_count} nodes): a partitioned run cannot be resumed; start a new run of plan ${input.partitioned.plan_record_id}`, { state, plan_id: input.partitioned.plan_record_id });
      }
      const old = await finalStatus(handle).catch(() => undefined);
      if (!old?.nodes) throw refuse(workflowId, 'no_status', `run ${workflowId} left no per-node status to resume from`, { state });

      const record = await deps.records.get(input.plan.record_id);
      if (!record || record.payload.kind !== 'plan_graph') {
        throw refuse(workflowId, 'plan_revision_gone', `plan ${input.plan.record_id} revision ${input.plan.revision}, which run ${workflowId} ran, no longer exists`, { plan_id: input.plan.record_id });
      }
      if (record.status === 'retracted') {
        throw new DomainError('plan_retracted', `plan ${record.id} is retracted: its runs cannot be resumed`, { workflow_id: workflowId, reason: 'plan_retracted', plan_id: record.id });
      }
      const split = splitForResume(input.plan.payload, old.nodes);
      if (split.rerun.length === 0) throw refuse(workflowId, 'nothing_to_rerun', `every node of run ${workflowId} succeeded: there is nothing to resume`, { state });

      // The reused outputs travel in the new run's start payload beside its inputs, which Temporal caps.
      const carried = Buffer.byteLength(JSON.stringify({ inputs: input.inputs ?? {}, reused: split.reused }));
      if (carried > deps.config.RUN_INPUT_LIMIT_BYTES) {
        throw new DomainError('payload_too_large', `the run's inputs and the outputs it would reuse are ${carried} bytes; the limit is ${deps.config.RUN_INPUT_LIMIT_BYTES} (RUN_INPUT_LIMIT_BYTES)`, {
          workflow_id: workflowId,
          field: 'reused',
          size_bytes: carried,
          limit_bytes: deps.config.RUN_INPUT_LIMIT_BYTES,
        });
      }
      // Pinned: the snapshot the old run ran (record id, revision and runnable plan), not the record's
      // current state; only what no run reads (metrics, searchable text) comes from the record.
      const pinned = { ...record, revision: input.plan.revision, payload: { ...record.payload, ...input.plan.payload } };
      const started = await startPlanRun({
        client: deps.client,
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        record: pinned,
        inputs: input.inputs ?? {},
        trust,
        taskDescriptor: input.task_descriptor,
        knownOps: deps.knownOps,
        inputLimitBytes: deps.config.RUN_INPUT_LIMIT_BYTES,
        resume: { workflow_id: workflowId, run_id: description.runId, reused: split.reused, run_ref_id: input.resume?.run_ref_id ?? firstRunId },
        memo: { resumed_from: workflowId },
      });
      return {
        workflow_id: started.workflowId,
        run_id: started.firstExecutionRunId,
        plan_id: record.id,
        plan_revision: input.plan.revision,
        resumed_from: workflowId,
        reused: split.reusedIds,
        rerun: split.rerun,
      };
    },
  };
}

export type Resumer = ReturnType<typeof createResumer>;
