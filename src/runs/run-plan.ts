/**
 * Running a plan from the CLI or a TS agent: a plan given as a payload (stored first as a new
 * plan record) or by its record id, started with its inputs through startPlanRun.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { assertRunInputs, withInputDefaults } from './run-inputs';
import type { planExecutorWorkflow } from '../../workflows/plan-executor';
import { parsePlanGraph } from '../domain/graph';
import { inputsSchemaIssues } from '../domain/inputs-schema';
import type { MemoryRecord, PlanGraphPayload, TrustContext } from '../domain/records';
import { canonicalJson } from '../domain/canonical-json';
import { DomainError } from '../domain/errors';
import type { Services } from '../services';
import { startPlanRun } from './start-run';
import { visibleSuccessor } from './plan-successor';

export type RunPlanDeps = Pick<Services, 'config' | 'registry' | 'temporal' | 'records' | 'revisions' | 'runs'>;

export interface RunPlanRequest {
  /** A plan graph payload to store and run (as read from a file), or the id of a stored plan. */
  plan: { payload: unknown } | { id: string };
  inputs?: Record<string, unknown>;
  trust?: TrustContext;
  taskDescriptor?: string;
  /** Audit actor when the payload is stored. */
  actor?: string;
}

export interface RunPlanStarted {
  record: MemoryRecord;
  /** True when the payload was stored as a new plan record by this call. */
  stored: boolean;
  handle: WorkflowHandle<typeof planExecutorWorkflow>;
  /** The plan named by id was superseded or merged: the active plan that replaced it (the named one runs). */
  supersededBy?: string;
}

const withoutMetrics = ({ metrics: _metrics, ...rest }: PlanGraphPayload) => rest;

/**
 * Stores a plan payload, or finds the identical plan a previous call stored: an active plan of
 * the same structure is unique, so running one file twice reuses its record, while a different
 * plan of that structure is a conflict to resolve by superseding it.
 */
async function storePayload(deps: RunPlanDeps, payload: PlanGraphPayload, actor: string): Promise<{ record: MemoryRecord; stored: boolean }> {
  try {
    return { record: (await deps.revisions.create({ payload }, { actor })).record, stored: true };
  } catch (err) {
    const twinId = err instanceof DomainError && err.code === 'conflict' ? err.details.existing_plan_id : undefined;
    const twin = typeof twinId === 'string' ? await deps.records.get(twinId) : undefined;
    if (twin?.payload.kind === 'plan_graph' && canonicalJson(withoutMetrics(twin.payload)) === canonicalJson(withoutMetrics(payload))) {
      return { record: twin, stored: false };
    }
    throw err;
  }
}

/**
 * Starts a run of a plan. Everything is checked before anything is stored or started: the
 * payload (every validation issue, unknown ops against this process's op registry) and the
 * inputs (what they hold, their size, the plan's inputs_schema).
 */
export async function runPlan(deps: RunPlanDeps, request: RunPlanRequest): Promise<RunPlanStarted> {
  const knownOps = new Set(deps.registry.keys());
  const inputs = request.inputs ?? {};
  let record: MemoryRecord;
  let stored = false;
  if ('id' in request.plan) {
    const found = await deps.records.get(request.plan.id);
    if (!found) throw new DomainError('not_found', `no plan ${request.plan.id}`, { id: request.plan.id });
    record = found;
  } else {
    // `kind` is filled in, as the plan routes do: a plan file need not say it is a plan.
    const raw = request.plan.payload;
    const payload = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? { kind: 'plan_graph', ...raw } : raw;
    const parsed = parsePlanGraph(payload, { knownOps, inputsSchemaIssues, startChecks: true });
    if (!parsed.ok) {
      throw new DomainError('invalid_plan', `invalid plan graph: ${parsed.issues.map((i) => i.message).join('; ')}`, { issues: parsed.issues });
    }
    assertRunInputs(parsed.plan.inputs_schema, withInputDefaults(parsed.plan.inputs_schema, inputs), deps.config.RUN_INPUT_LIMIT_BYTES);
    ({ record, stored } = await storePayload(deps, parsed.plan, request.actor ?? 'plangraph-run'));
  }
  const handle = await startPlanRun({
    client: deps.temporal.starter,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    record,
    inputs,
    trust: request.trust,
    taskDescriptor: request.taskDescriptor,
    knownOps,
    records: deps.records,
    inputLimitBytes: deps.config.RUN_INPUT_LIMIT_BYTES,
    partitionNodes: deps.config.PLAN_PARTITION_NODES,
    outputLimitBytes: deps.config.NODE_OUTPUT_LIMIT_BYTES,
    opener: { runs: deps.runs, registry: deps.registry },
  });
  const supersededBy = 'id' in request.plan ? await visibleSuccessor(deps.records, record, request.trust) : undefined;
  return { record, stored, handle, ...(supersededBy ? { supersededBy } : {}) };
}
