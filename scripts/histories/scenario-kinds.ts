/**
 * The kinds of scenario scripts/record-histories.ts records: a plan run (optionally acted on while it
 * runs), a failed run and its resumed run, a run opened by its starter.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { loadConfig } from '../../src/config';
import type { Db } from '../../src/db/client';
import { approvalUpdate } from '../../src/domain/approvals';
import { planGraphPayloadSchema, type PlanGraphPayloadInput } from '../../src/domain/records';
import { statusQuery } from '../../src/domain/run-state';
import { loadOpRegistry } from '../../src/ops/registry';
import { finalStatus } from '../../src/runs/follow-run';
import { splitForResume } from '../../src/runs/resume-plan';
import { startPlanRun } from '../../src/runs/start-run';
import { createRecordStore } from '../../src/store/records';
import { createRunStore } from '../../src/store/plan-runs';

/** The task queue of the recording worker: every scenario's runs start on it. */
export const HISTORY_TASK_QUEUE = 'plangraph-histories';

export interface Env {
  client: Client;
  db: Db;
}

type PlanSpec = Pick<PlanGraphPayloadInput, 'nodes' | 'edges' | 'constraints'> & { intent: string };

export interface Scenario {
  name: string;
  /** Also record the first run of a run that continued as new, as `<name>-first.json`. */
  firstRunToo?: boolean;
  /** Starts the run under `workflowId` and waits until it is closed. */
  run(env: Env, workflowId: string): Promise<WorkflowHandle>;
}

/** A plan-run scenario: store the plan, start it, optionally act on it, wait for it to close. */
export function planScenario(name: string, plan: PlanSpec, act?: (handle: WorkflowHandle) => Promise<void>, partitionNodes?: number): Scenario {
  return {
    name,
    firstRunToo: partitionNodes !== undefined,
    async run({ client, db }, workflowId) {
      const payload = planGraphPayloadSchema.parse({ kind: 'plan_graph', plan_id: `history-${name}`, inputs_schema: {}, ...plan });
      const record = await createRecordStore(db).create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
      const handle = await startPlanRun({ client, taskQueue: HISTORY_TASK_QUEUE, record, workflowId, partitionNodes });
      await act?.(handle);
      await handle.result().catch(() => undefined); // failed and cancelled runs are scenarios too
      return handle;
    },
  };
}

/** Polls the run's status query until `node` is running (cancelling before then records nothing). */
export async function untilNodeRunning(handle: WorkflowHandle, node: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await handle.query(statusQuery);
    if (status.nodes.some((n) => n.id === node && n.state === 'running')) return;
    if (Date.now() > deadline) throw new Error(`node ${node} did not start within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls the run's status query until `id` (a node or the run gate) waits for a decision, then decides it. */
export async function decideWhenWaiting(handle: WorkflowHandle, id: string, decision: 'approve' | 'reject'): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await handle.query(statusQuery)).waiting_for?.some((w) => w.node_id === id)) {
    if (Date.now() > deadline) throw new Error(`${id} did not wait within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await handle.executeUpdate(approvalUpdate, { args: [{ node_id: id, decision, by: 'history-recorder', comment: 'recorded' }] });
}

/** A run that fails (its gate's file is missing), then the resumed run, recorded, after the file is created. */
export function resumeScenario(name: string): Scenario {
  return {
    name,
    async run({ client, db }, workflowId) {
      const dir = mkdtempSync(join(tmpdir(), 'plangraph-history-resume-'));
      const marker = join(dir, 'ready');
      const log = join(dir, 'log');
      const payload = planGraphPayloadSchema.parse({
        kind: 'plan_graph',
        plan_id: `history-${name}`,
        intent: 'history: resumed run',
        constraints: { failure_policy: 'continue' },
        nodes: [echo('load', { n: 1 }), { id: 'gate', op: 'until_file', params: { file: marker, log } }, echo('after'), echo('side')],
        edges: [
          { from: 'load', to: 'gate', kind: 'data' },
          { from: 'gate', to: 'after', kind: 'data' },
          { from: 'load', to: 'side', kind: 'data' },
        ],
      });
      const record = await createRecordStore(db).create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
      const first = await startPlanRun({ client, taskQueue: HISTORY_TASK_QUEUE, record, workflowId: `${workflowId}-failed` });
      const old = await finalStatus(first);
      writeFileSync(marker, 'ok');
      const { reused } = splitForResume(payload, old.nodes);
      const handle = await startPlanRun({ client, taskQueue: HISTORY_TASK_QUEUE, record, workflowId, resume: { workflow_id: first.workflowId, run_id: first.firstExecutionRunId, reused } });
      await handle.result();
      return handle;
    },
  };
}

/** A run whose starter opened it (StartRunOptions.opener): the run begins without the beginRun local activity. */
export function openedByStarterScenario(name: string): Scenario {
  return {
    name,
    async run({ client, db }, workflowId) {
      const payload = planGraphPayloadSchema.parse({
        kind: 'plan_graph',
        plan_id: `history-${name}`,
        intent: 'history: run opened by its starter',
        nodes: [echo('load', { n: 1 }), { id: 'call', op: 'noop' }, echo('after')],
        edges: [
          { from: 'load', to: 'call', kind: 'control' },
          { from: 'call', to: 'after', kind: 'control' },
        ],
      });
      const record = await createRecordStore(db).create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload });
      const opener = { runs: createRunStore(db), registry: await loadOpRegistry(loadConfig()) };
      const handle = await startPlanRun({ client, taskQueue: HISTORY_TASK_QUEUE, record, workflowId, opener });
      await handle.result();
      return handle;
    },
  };
}

export const echo = (id: string, params: Record<string, unknown> = {}, guards?: Record<string, unknown>) => ({ id, op: 'echo', params, ...(guards ? { guards } : {}) });
