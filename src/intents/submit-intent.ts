/**
 * Submitting an intent (docs/api.md `POST /v1/intents`): pick a stored plan for a task under the
 * caller's trust — the retrieval's confident pick, or the plan the caller names — and start it.
 * The HTTP route, the CLI and the MCP server all go through this one function.
 */
import { createHash } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { z } from 'zod';
import { effectiveTrust, type Principal } from '../domain/principal';
import type { Config } from '../config';
import { aRecordType, sensitivityRank, type MemoryRecord, type PlanGraphPayload, type TrustContext } from '../domain/records';
import { visibility } from '../domain/trust';
import { DomainError } from '../domain/errors';
import { canonicalJson } from '../domain/canonical-json';
import { contradictedInputs, overriddenDefaults, suggestInputs } from '../domain/input-disagreements';
import { planPhrasings } from '../domain/phrasing-template';
import { phrasingWithoutValues } from '../domain/alias-match';
import { isSelectable, type Retriever } from '../retrieval/retrieve';
import type { Selection } from '../domain/scoring';
import { holdReason } from '../domain/holds';
import { PLAN_ID_ATTRIBUTE, startPlanRun, type RunOpener } from '../runs/start-run';
import { inputProblems, missingInputs, withInputDefaults } from '../runs/run-inputs';
import type { AliasLearner } from '../store/aliases';
import type { RecordStore } from '../store/records';
import { visibleSuccessor } from '../runs/plan-successor';
import { runUiUrl, type RunViewer } from './run-view';
import { selectionSchema, type intentRequestSchema, type IntentResponse, type SelectionView } from './schemas';
import { selectionDecisions } from '../telemetry/metrics';

/** A parsed intent request (defaults applied). */
export type IntentInput = z.output<typeof intentRequestSchema>;

/** Candidates retrieved per intent; enough for the runner-up that sets the confidence. */
const CANDIDATE_LIMIT = 10;

export interface IntentServiceDeps {
  config: Config;
  client: Client;
  /** The client runs are started with (Services.temporal.starter). */
  starter: Client;
  records: Pick<RecordStore, 'get' | 'successor'>;
  retriever: Pick<Retriever, 'retrieve'>;
  /** Ops the workers provide (the op registry's keys). */
  knownOps: ReadonlySet<string>;
  viewer: Pick<RunViewer, 'view' | 'waitFor'>;
  /** Learns a task descriptor as an alias of the plan the caller had to name; absent = no learning. */
  aliases?: Pick<AliasLearner, 'learn'>;
  /** Opens runs before they start (src/runs/start-run.ts); absent = each run's worker opens it. */
  opener?: RunOpener;
}

interface PlanChoice {
  record: MemoryRecord;
  selected_by: IntentResponse['selected_by'];
  selection: SelectionView | null;
  /** The active plan that replaced the named one (it still runs as named). */
  superseded_by?: string;
}

/**
 * Workflow id of an idempotent submission: a hash of principal and key, so a repeated key maps
 * to the same run and two principals using the same key never collide.
 */
export function idempotentWorkflowId(principal: Pick<Principal, 'name'>, key: string): string {
  return `intent-${createHash('sha256').update(`${principal.name}\u0000${key}`).digest('hex').slice(0, 40)}`;
}

/**
 * What an idempotent run remembers of the request that started it (in its memo), so a later
 * request under the same key can be checked to be the same request: the inputs as a hash of
 * their canonical JSON (key order does not matter; the inputs themselves may be large) and the
 * effective trust. The task descriptor is in the memo already and the named plan_id follows from
 * `selected_by` and the plan id search attribute.
 */
interface RequestFingerprint {
  inputs_sha256: string;
  trust: string;
}

/**
 * The effective trust, not the `trust` narrowing as sent: it is what the run gets, so narrowings
 * that come to the same trust are the same request. Scope order does not matter.
 */
function requestFingerprint(input: IntentInput, trust: TrustContext): RequestFingerprint {
  const scopes = trust.scopes ? [...trust.scopes].sort() : null;
  return {
    inputs_sha256: createHash('sha256').update(canonicalJson(input.inputs)).digest('hex'),
    trust: canonicalJson({ max_sensitivity: trust.max_sensitivity, authenticated: trust.authenticated, scopes }),
  };
}

/**
 * The request field in which a submission differs from the one that started an idempotent run,
 * or undefined when it is the same request. Compared: everything that decides what runs —
 * task_descriptor (checked by the caller), plan_id (naming a plan and leaving the pick to
 * retrieval differ even when retrieval picked that plan), inputs and the effective trust. Not
 * compared: `wait` and `wait_timeout_ms`, which only decide how long the answer waits for the
 * same run. Runs started before the fingerprint was stored have none: their inputs and trust are
 * unknown and accepted, as before.
 */
function differingField(memo: Record<string, unknown>, runPlanId: string | undefined, input: IntentInput, fingerprint: RequestFingerprint): string | undefined {
  const namedPlan = memo.selected_by === 'plan_id' ? runPlanId : memo.selected_by === 'retrieval' ? null : undefined;
  if (namedPlan !== undefined && namedPlan !== (input.plan_id ?? null)) return 'plan_id';
  const stored = memo.request as Partial<RequestFingerprint> | undefined;
  if (typeof stored?.inputs_sha256 === 'string' && stored.inputs_sha256 !== fingerprint.inputs_sha256) return 'inputs';
  if (typeof stored?.trust === 'string' && stored.trust !== fingerprint.trust) return 'trust';
  return undefined;
}

/** Refuses a plan the caller may not run, naming the constraint (403). */
function assertRunnable(record: MemoryRecord, trust: TrustContext): void {
  if (record.payload.kind !== 'plan_graph') throw new DomainError('not_a_plan', `record ${record.id} is ${aRecordType(record.type)}, not a plan graph`);
  const { requires_authenticated, max_sensitivity } = record.payload.constraints;
  if (requires_authenticated && !trust.authenticated) {
    throw new DomainError('forbidden', `plan ${record.id} requires an authenticated caller (send an API key)`, { plan_id: record.id, constraint: 'requires_authenticated' });
  }
  if (max_sensitivity && sensitivityRank(max_sensitivity) > sensitivityRank(trust.max_sensitivity)) {
    throw new DomainError('forbidden', `plan ${record.id} handles "${max_sensitivity}" data; this caller is cleared for "${trust.max_sensitivity}"`, {
      plan_id: record.id,
      constraint: 'max_sensitivity',
    });
  }
}

/** Why retrieval did not pick a plan to run, and what the caller can do. */
function needsMoreMessage(selection: Selection): string {
  const held = holdReason(selection);
  if (held) {
    return `${held} (confidence ${selection.confidence.toFixed(3)}); name it with plan_id if that is what you mean, or describe the task further`;
  }
  return `no stored plan is a confident match (confidence ${selection.confidence.toFixed(3)} < ${selection.threshold}); name one with plan_id or describe the task further`;
}

/**
 * A 422 when the task names another value for an input than the run would take: one the caller
 * left to its default, or gave otherwise. The caller sends the value meant; undefined when none.
 */
function inputsTaskDisagrees(choice: PlanChoice, input: IntentInput): DomainError | undefined {
  const payload = choice.record.payload as PlanGraphPayload;
  const phrasings = planPhrasings(payload);
  const given = input.inputs ?? {};
  const overridden = overriddenDefaults(payload.inputs_schema, input.task_descriptor, given, phrasings);
  const contradicted = contradictedInputs(payload.inputs_schema, input.task_descriptor, given, phrasings);
  if (overridden.length === 0 && contradicted.length === 0) return undefined;
  const them = (list: readonly unknown[]) => (list.length > 1 ? 'them' : 'it');
  // What the schema refuses besides ("inputs.repo: must be string"), so one answer names every fix.
  const problems = inputProblems(payload.inputs_schema, withInputDefaults(payload.inputs_schema, given));
  const said = [
    ...(overridden.length > 0
      ? [`the task names ${overridden.map((o) => `${o.name}=${String(o.named)} (default ${JSON.stringify(o.default)})`).join(', ')}, but inputs leave ${them(overridden)} to the default`]
      : []),
    ...(contradicted.length > 0
      ? [`the task names ${contradicted.map((c) => `${c.name}=${String(c.named)}`).join(', ')}, but inputs give ${contradicted.map((c) => JSON.stringify(c.given)).join(', ')}`]
      : []),
    ...problems,
  ].join('; ');
  return new DomainError(
    'invalid_inputs',
    `${said} (plan ${choice.record.id}, ${payload.intent}, chosen by ${choice.selected_by}); send the value meant in inputs`,
    {
      plan_id: choice.record.id,
      intent: payload.intent,
      selected_by: choice.selected_by,
      inputs_schema: payload.inputs_schema,
      ...(problems.length > 0 ? { problems } : {}),
      suggested_inputs: Object.fromEntries([...overridden, ...contradicted].map((o) => [o.name, o.named])),
    },
  );
}

/** Creates the intent service over Temporal, the record store and the retriever. */
export function createIntentService(deps: IntentServiceDeps) {
  const { config, client } = deps;

  /** The plan the caller named, if its trust may see all of it and its constraints allow. */
  async function namedPlan(planId: string, trust: TrustContext): Promise<PlanChoice> {
    const record = await deps.records.get(planId);
    const seen = record ? visibility(record, trust) : 'invisible';
    if (!record || seen === 'invisible') throw new DomainError('not_found', `no plan ${planId}`, { plan_id: planId });
    if (seen === 'redacted') {
      throw new DomainError('forbidden', `plan ${planId} is "${record.sensitivity}", above this caller's "${trust.max_sensitivity}"`, { plan_id: planId });
    }
    assertRunnable(record, trust);
    return { record, selected_by: 'plan_id', selection: null, superseded_by: await visibleSuccessor(deps.records, record, trust) };
  }

  /** The retrieval's pick, or 422 `needs_more` with the ranked candidates. */
  async function retrievedPlan(taskDescriptor: string, trust: TrustContext): Promise<PlanChoice> {
    const { candidates, selection } = await deps.retriever.retrieve({ task_descriptor: taskDescriptor, trust, memory_types: ['plan_graph'], limit: CANDIDATE_LIMIT });
    const best = candidates.find((c) => isSelectable(c, trust));
    // A pick is counted once its start is answered (start(): auto_run or refused).
    if (selection.needs_more || !best) {
      selectionDecisions.inc({ decision: best ? 'needs_more' : 'none' });
      throw new DomainError('needs_more', needsMoreMessage(selection), { selection, candidates });
    }
    return { record: best.record, selected_by: 'retrieval', selection };
  }

  /**
   * The run an earlier submission with this key started, or undefined; 409 `conflict` naming the
   * field when that submission was a different request (nothing is started).
   */
  async function existingRun(workflowId: string, input: IntentInput, trust: TrustContext): Promise<IntentResponse | undefined> {
    let description;
    try {
      description = await client.workflow.getHandle(workflowId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
    const memo = description.memo ?? {};
    const key = input.idempotency_key;
    if (memo.task_descriptor !== input.task_descriptor) {
      throw new DomainError('conflict', `idempotency key already used for a different task: "${String(memo.task_descriptor)}"`, {
        idempotency_key: key,
        field: 'task_descriptor',
        workflow_id: workflowId,
      });
    }
    const planId = description.typedSearchAttributes.get(PLAN_ID_ATTRIBUTE);
    const field = differingField(memo, planId, input, requestFingerprint(input, trust));
    if (field) {
      throw new DomainError('conflict', `idempotency key already used for a request with different ${field}`, { idempotency_key: key, field, workflow_id: workflowId });
    }
    const selection = selectionSchema.safeParse(memo.selection);
    return {
      workflow_id: workflowId,
      run_id: description.runId,
      plan_id: planId ?? '',
      selected_by: memo.selected_by === 'plan_id' ? 'plan_id' : 'retrieval',
      selection: selection.success ? selection.data : null,
      ui_url: runUiUrl(config, workflowId, description.runId),
      existing: true,
    };
  }

  async function start(input: IntentInput, trust: TrustContext, workflowId: string | undefined): Promise<IntentResponse> {
    const choice = input.plan_id ? await namedPlan(input.plan_id, trust) : await retrievedPlan(input.task_descriptor, trust);
    const decided = (decision: 'auto_run' | 'refused') => {
      if (choice.selected_by === 'retrieval') selectionDecisions.inc({ decision });
    };
    const defaultsProblem = inputsTaskDisagrees(choice, input);
    if (defaultsProblem) {
      decided('refused');
      throw defaultsProblem;
    }
    try {
      const handle = await startPlanRun({
        client: deps.starter,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        record: choice.record,
        inputs: input.inputs,
        trust,
        taskDescriptor: input.task_descriptor,
        workflowId,
        knownOps: deps.knownOps,
        records: deps.records,
        inputLimitBytes: config.RUN_INPUT_LIMIT_BYTES,
        partitionNodes: config.PLAN_PARTITION_NODES,
        outputLimitBytes: config.NODE_OUTPUT_LIMIT_BYTES,
        opener: deps.opener,
        // Never a second run under an idempotent id, even after the first one closed.
        idPolicy: workflowId ? { workflowIdReusePolicy: 'REJECT_DUPLICATE', workflowIdConflictPolicy: 'FAIL' } : undefined,
        memo: { selected_by: choice.selected_by, selection: choice.selection, ...(workflowId ? { request: requestFingerprint(input, trust) } : {}) },
      });
      decided('auto_run');
      return {
        workflow_id: handle.workflowId,
        run_id: handle.firstExecutionRunId,
        plan_id: choice.record.id,
        selected_by: choice.selected_by,
        selection: choice.selection,
        ui_url: runUiUrl(config, handle.workflowId, handle.firstExecutionRunId),
        existing: false,
        ...(choice.superseded_by ? { superseded_by: choice.superseded_by } : {}),
      };
    } catch (err) {
      // A concurrent submission with the same key won the race: answer with its run.
      const existing = workflowId && err instanceof WorkflowExecutionAlreadyStartedError ? await existingRun(workflowId, input, trust) : undefined;
      if (existing) return existing;
      // Refused by a check (inputs, ops, sub-plans): a 4xx. An outage is not a decision.
      if (err instanceof DomainError) decided('refused');
      if (err instanceof DomainError && err.code === 'invalid_inputs') {
        // The caller may not know which plan selection picked: name it and the schema to fill.
        const payload = choice.record.payload as PlanGraphPayload;
        const suggested = suggestInputs(payload.inputs_schema, input.task_descriptor, input.inputs ?? {}, planPhrasings(payload));
        const named = Object.entries(suggested).map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`);
        // Whatever the task does not name is still needed: say so, or the suggestion reads as complete.
        const missing = missingInputs(payload.inputs_schema, { ...input.inputs, ...suggested });
        const unnamed = missing.length > 0 ? `; it does not name ${missing.join(', ')}, needed too` : '';
        const hint = named.length > 0 ? `; the task names ${named.join(', ')}: send ${named.length > 1 ? 'them' : 'it'} in inputs${unnamed}` : '';
        throw new DomainError('invalid_inputs', `${err.message} (plan ${choice.record.id}, ${payload.intent}, chosen by ${choice.selected_by})${hint}`, {
          ...err.details,
          plan_id: choice.record.id,
          intent: payload.intent,
          selected_by: choice.selected_by,
          inputs_schema: payload.inputs_schema,
          ...(hint ? { suggested_inputs: suggested, missing_inputs: missing } : {}),
        });
      }
      throw err;
    }
  }

  /**
   * After a plan named by plan_id ran successfully: if retrieval would not have run that plan for
   * this task on its own (needs_more, or another pick), the task descriptor, without the input
   * values it names, becomes an alias of the plan, so the same request matches it directly next
   * time, with these values or others.
   */
  async function learnFromChoice(planId: string, input: IntentInput, trust: TrustContext, principal: Principal): Promise<void> {
    const taskDescriptor = input.task_descriptor;
    if (!deps.aliases) return;
    const { candidates, selection } = await deps.retriever.retrieve({ task_descriptor: taskDescriptor, trust, memory_types: ['plan_graph'], limit: CANDIDATE_LIMIT });
    const pick = candidates.find((c) => isSelectable(c, trust));
    if (!selection.needs_more && pick?.record.id === planId) return;
    await deps.aliases.learn(planId, phrasingWithoutValues(taskDescriptor, input.inputs), principal.name, 'run chosen by plan_id succeeded');
  }

  return {
    /**
     * Picks a plan for the task and starts it under the caller's (possibly narrowed) trust;
     * with `wait`, also waits (bounded) for the run and includes it.
     */
    async submit(principal: Principal, input: IntentInput): Promise<IntentResponse> {
      const trust = effectiveTrust(principal, input.trust);
      const workflowId = input.idempotency_key ? idempotentWorkflowId(principal, input.idempotency_key) : undefined;
      const response = (workflowId ? await existingRun(workflowId, input, trust) : undefined) ?? (await start(input, trust, workflowId));
      if (!input.wait) return response;
      await deps.viewer.waitFor(response.workflow_id, response.run_id, input.wait_timeout_ms);
      const run = await deps.viewer.view(response.workflow_id, trust);
      if (run.state === 'succeeded' && response.selected_by === 'plan_id') await learnFromChoice(response.plan_id, input, trust, principal);
      return { ...response, run };
    },
  };
}

export type IntentService = ReturnType<typeof createIntentService>;
