/**
 * The TypeScript client of the HTTP API: one typed method per route, its request and response
 * types inferred from the routes' own zod schemas (type-only imports: nothing of the server is
 * loaded). Errors come back as PlangraphError with the API's code, message and details.
 */
import type { z } from 'zod';
import type { consolidationRunBodySchema, consolidationRunResponseSchema } from './api/routes/consolidation';
import type { healthSchema } from './api/routes/health';
import type { IntentRequest, IntentResponse } from './api/routes/intents';
import type { planPageSchema, planViewSchema, reinforceResultSchema, visiblePlanSchema } from './api/routes/plans';
import type { retrieveRequestSchema, RetrieveResponse } from './api/routes/retrieve';
import type { CancelResponse, RunView } from './api/routes/runs';
import type { visibleEpisodeSchema } from './api/routes/episodes';
import type { whoamiSchema } from './api/routes/principal';
import type { RunNodeList, RunNodeListQuery, runNodeSchema } from './intents/run-node';
import type { ApprovalBody, ApprovalList } from './runs/approve-run';
import type { ResumeResponse } from './runs/resume-run';
import type { PendingApprovals } from './runs/pending-approvals';
import type { ApprovalDecision } from './domain/approvals';
import type { ListRunsQuery, RunList } from './store/run-list';
import type { Stats } from './api/routes/stats';
import type { MemoryRecord, newEpisodeSchema } from './domain/records';
import type { ListPlansQuery } from './retrieval/plan-reader';
import type { ReinforceInput } from './retrieval/reinforce';
import type { AuthorPlanInput, ContestInput, ForkInput, MergeInput, RetractInput, SupersedeInput, WriteResult } from './domain/revision-requests';

export type Health = z.infer<typeof healthSchema>;
export type VisibleEpisode = z.infer<typeof visibleEpisodeSchema>;
export type Whoami = z.infer<typeof whoamiSchema>;
export type RunNode = z.infer<typeof runNodeSchema>;
export type { ListRunsQuery, RunList };
export type { AuthorPlanInput, ContestInput, ForkInput, MergeInput, RetractInput, SupersedeInput, WriteResult };
export type NewEpisodeInput = z.input<typeof newEpisodeSchema>;
export type PlanPage = z.infer<typeof planPageSchema>;
export type VisiblePlan = z.infer<typeof visiblePlanSchema>;
export type PlanView = z.infer<typeof planViewSchema>;
export type ReinforceResult = z.infer<typeof reinforceResultSchema>;
export type RetrieveRequest = z.input<typeof retrieveRequestSchema>;
export type ConsolidationRequest = z.input<typeof consolidationRunBodySchema>;
export type ConsolidationResponse = z.infer<typeof consolidationRunResponseSchema>;
export type { ApprovalBody, ApprovalDecision, ApprovalList, PendingApprovals, ResumeResponse };
export type { CancelResponse, IntentRequest, IntentResponse, MemoryRecord, RetrieveResponse, RunView, Stats };

/** An error answered by the API: `{error: {code, message, details}}` and its HTTP status. */
export class PlangraphError extends Error {
  override readonly name = 'PlangraphError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface PlangraphClientOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; without it the client is anonymous (public records only). */
  apiKey?: string;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
}

type Method = 'GET' | 'POST';

/** Creates a client for a plangraph API. */
export function createPlangraphClient(options: PlangraphClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function send(method: Method, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.ok) return response;
    const text = await response.text();
    let error: { code?: string; message?: string; details?: Record<string, unknown> } = {};
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
    } catch {
      // Not the API's error shape (e.g. a proxy's page): keep the raw text as the message.
    }
    throw new PlangraphError(response.status, error.code ?? 'http_error', error.message ?? (text || response.statusText), error.details ?? {});
  }
  const json = async <T>(method: Method, path: string, body?: unknown): Promise<T> => (await (await send(method, path, body)).json()) as T;
  const text = async (path: string): Promise<string> => (await send('GET', path)).text();
  const id = (value: string) => encodeURIComponent(value);
  const query = (params: Record<string, unknown>) => {
    const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null);
    return entries.length > 0 ? `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
  };

  return {
    /** GET /healthz */
    health: () => json<Health>('GET', '/healthz'),
    /** POST /v1/episodes */
    submitEpisode: (episode: NewEpisodeInput) => json<MemoryRecord>('POST', '/v1/episodes', episode),
    /** POST /v1/plans */
    createPlan: (plan: AuthorPlanInput) => json<WriteResult>('POST', '/v1/plans', plan),
    /** POST /v1/plans/:id/supersede (a new revision; the old one stops being selected) */
    supersedePlan: (planId: string, input: SupersedeInput) => json<WriteResult>('POST', `/v1/plans/${id(planId)}/supersede`, input),
    /** POST /v1/plans/:id/fork (a new plan beside the old, linked to it) */
    forkPlan: (planId: string, input: ForkInput) => json<WriteResult>('POST', `/v1/plans/${id(planId)}/fork`, input),
    /** POST /v1/plans/:id/contest */
    contestPlan: (planId: string, input: ContestInput) => json<WriteResult>('POST', `/v1/plans/${id(planId)}/contest`, input),
    /** POST /v1/plans/:id/retract */
    retractPlan: (planId: string, input: RetractInput) => json<WriteResult>('POST', `/v1/plans/${id(planId)}/retract`, input),
    /** POST /v1/plans/merge */
    mergePlans: (input: MergeInput) => json<WriteResult>('POST', '/v1/plans/merge', input),
    /** GET /v1/plans */
    listPlans: (filter: ListPlansQuery = {}) => json<PlanPage>('GET', `/v1/plans${query(filter)}`),
    /** GET /v1/plans/:id */
    getPlan: (planId: string) => json<PlanView>('GET', `/v1/plans/${id(planId)}`),
    /** GET /v1/plans/:id/diagram (Mermaid text) */
    diagram: (planId: string) => text(`/v1/plans/${id(planId)}/diagram`),
    /** POST /v1/plans/:id/reinforce */
    reinforce: (planId: string, input: ReinforceInput = {}) => json<ReinforceResult>('POST', `/v1/plans/${id(planId)}/reinforce`, input),
    /** POST /v1/retrieve */
    retrieve: (request: RetrieveRequest) => json<RetrieveResponse>('POST', '/v1/retrieve', request),
    /** POST /v1/intents (a `needs_more` answer throws a PlangraphError whose details hold the candidates) */
    submitIntent: (intent: IntentRequest) => json<IntentResponse>('POST', '/v1/intents', intent),
    /** GET /v1/runs (newest first, only runs of plans the caller may see and run) */
    listRuns: (filter: ListRunsQuery = {}) => json<RunList>('GET', `/v1/runs${query(filter)}`),
    /** GET /v1/runs/:workflow_id/nodes (every node in topological order, paged; partitioned runs included) */
    listRunNodes: (workflowId: string, filter: RunNodeListQuery = {}) => json<RunNodeList>('GET', `/v1/runs/${id(workflowId)}/nodes${query(filter)}`),
    /** GET /v1/runs/:workflow_id/nodes/:node_id (a node's params as declared and as resolved) */
    getRunNode: (workflowId: string, nodeId: string) => json<RunNode>('GET', `/v1/runs/${id(workflowId)}/nodes/${id(nodeId)}`),
    /** GET /v1/episodes/:id */
    getEpisode: (episodeId: string) => json<VisibleEpisode>('GET', `/v1/episodes/${id(episodeId)}`),
    /** GET /v1/whoami (the caller's principal and trust) */
    whoami: () => json<Whoami>('GET', '/v1/whoami'),
    /** GET /v1/runs/:workflow_id */
    getRun: (workflowId: string) => json<RunView>('GET', `/v1/runs/${id(workflowId)}`),
    /** POST /v1/runs/:workflow_id/cancel */
    cancelRun: (workflowId: string) => json<CancelResponse>('POST', `/v1/runs/${id(workflowId)}/cancel`, {}),
    /** GET /v1/approvals (runs waiting for a person, among the newest `limit` running runs) */
    pendingApprovals: (limit?: number) => json<PendingApprovals>('GET', `/v1/approvals${query({ limit })}`),
    /** GET /v1/runs/:workflow_id/approvals (what a running run waits for, and the decisions so far) */
    listApprovals: (workflowId: string) => json<ApprovalList>('GET', `/v1/runs/${id(workflowId)}/approvals`),
    /** POST /v1/runs/:workflow_id/approvals/:node_id (node `$run`: the requires_approval gate) */
    decideApproval: (workflowId: string, nodeId: string, body: ApprovalBody) =>
      json<ApprovalDecision>('POST', `/v1/runs/${id(workflowId)}/approvals/${id(nodeId)}`, body),
    /** POST /v1/runs/:workflow_id/approvals/:node_id with decision "approve" */
    approve: (workflowId: string, nodeId: string, comment?: string) =>
      json<ApprovalDecision>('POST', `/v1/runs/${id(workflowId)}/approvals/${id(nodeId)}`, { decision: 'approve', comment }),
    /** POST /v1/runs/:workflow_id/approvals/:node_id with decision "reject" */
    reject: (workflowId: string, nodeId: string, comment?: string) =>
      json<ApprovalDecision>('POST', `/v1/runs/${id(workflowId)}/approvals/${id(nodeId)}`, { decision: 'reject', comment }),
    /** POST /v1/runs/:workflow_id/resume (a new run that reruns only what did not succeed) */
    resumeRun: (workflowId: string) => json<ResumeResponse>('POST', `/v1/runs/${id(workflowId)}/resume`, {}),
    /** GET /v1/stats */
    stats: () => json<Stats>('GET', '/v1/stats'),
    /** GET /metrics (Prometheus text) */
    metrics: () => text('/metrics'),
    /** POST /v1/consolidation/run */
    consolidate: (request: ConsolidationRequest = {}) => json<ConsolidationResponse>('POST', '/v1/consolidation/run', request),
  };
}

export type PlangraphClient = ReturnType<typeof createPlangraphClient>;
