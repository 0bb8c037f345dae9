/**
 * The MCP tools: plangraph's agent-facing verbs (find plans, run an intent or a named plan, watch
 * a run, submit an episode, reinforce a plan), each a zod input schema over the same library
 * functions the HTTP API uses, acting as one principal.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { temporalIdSchema } from '../domain/run-schemas';
import { effectiveTrust, type Principal } from '../domain/principal';
import { jsonProblem } from '../domain/json-limits';
import { MAX_TASK_DESCRIPTOR_CHARS } from '../domain/selection';
import { aRecordType, newEpisodeSchema, trustContextSchema } from '../domain/records';
import { DomainError } from '../domain/errors';
import { intentRequestSchema } from '../intents/schemas';
import type { IntentComponents } from '../intents/wiring';
import type { PlanReader } from '../retrieval/plan-reader';
import type { ReinforceInput, createReinforcer } from '../retrieval/reinforce';
import type { Retriever } from '../retrieval/retrieve';
import type { EpisodeStore } from '../store/episodes';

export interface McpToolDeps extends IntentComponents {
  principal: Principal;
  retriever: Pick<Retriever, 'retrieve'>;
  plans: Pick<PlanReader, 'get'>;
  reinforcer: Pick<ReturnType<typeof createReinforcer>, 'reinforce'>;
  episodes: Pick<EpisodeStore, 'create'>;
}

/** A tool answer: the JSON result as text, or the API's error shape flagged as an error. */
export async function answer(work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await work(), null, 2) }] };
  } catch (err) {
    const error =
      err instanceof DomainError
        ? { code: err.code, message: err.message, details: err.details }
        : { code: 'internal', message: err instanceof Error ? err.message : String(err), details: {} };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }, null, 2) }] };
  }
}

/**
 * The episode's payload checked as sent, as the HTTP body is: zod copies it on the way in, and a
 * copy silently drops a `__proto__` key (the MCP library validates before any handler runs).
 */
const episodeArgs = {
  ...newEpisodeSchema.shape,
  payload: z.preprocess((payload, ctx) => {
    const problem = jsonProblem(payload);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path.map(String), message: problem.message, input: payload });
    return payload;
  }, newEpisodeSchema.shape.payload),
};

const narrowTrust = trustContextSchema.partial().optional().describe("Narrows the server's trust (never widens it)");
const intentShape = intentRequestSchema.omit({ plan_id: true }).shape;

/** Registers every plangraph tool on the server. */
export function registerTools(server: McpServer, deps: McpToolDeps): void {
  const { principal } = deps;

  server.registerTool(
    'find_plans',
    {
      title: 'Find plans',
      description: 'Rank stored plan graphs for a task (score, signals) and say whether the best is a confident pick (selection.needs_more).',
      inputSchema: { task_descriptor: z.string().min(1).max(MAX_TASK_DESCRIPTOR_CHARS), limit: z.number().int().min(1).max(100).default(10), trust: narrowTrust },
    },
    ({ task_descriptor, limit, trust }) =>
      answer(() => deps.retriever.retrieve({ task_descriptor, limit, memory_types: ['plan_graph'], trust: effectiveTrust(principal, trust) })),
  );

  server.registerTool(
    'run_intent',
    {
      title: 'Run an intent',
      description:
        'Pick the best stored plan for a task and run it as a Temporal workflow. Errors with needs_more (and the ranked candidates) when no plan is a confident match; then call run_plan with one of them.',
      inputSchema: intentShape,
    },
    (args) => answer(() => deps.intents.submit(principal, intentRequestSchema.parse(args))),
  );

  server.registerTool(
    'run_plan',
    {
      title: 'Run a plan',
      description: 'Run a stored plan graph by its record id, with inputs matching its inputs_schema.',
      inputSchema: {
        ...intentShape,
        plan_id: z.uuid(),
        task_descriptor: z.string().min(1).optional().describe('What the run is for (kept in the run memo)'),
      },
    },
    (args) => answer(() => deps.intents.submit(principal, intentRequestSchema.parse({ ...args, task_descriptor: args.task_descriptor ?? `run plan ${args.plan_id}` }))),
  );

  server.registerTool(
    'get_run',
    {
      title: 'Get a run',
      description: "A run's state, per-node status while running and result (every node's output) when done.",
      inputSchema: { workflow_id: temporalIdSchema },
    },
    ({ workflow_id }) => answer(() => deps.viewer.view(workflow_id, effectiveTrust(principal))),
  );

  server.registerTool(
    'submit_episode',
    {
      title: 'Submit an episode',
      description:
        'Store what an agent did (timeline, tool graph, outcome); consolidation turns episodes into reusable plan graphs. ' +
        'Give an idempotency_key to make a retry safe: the same key stores the episode once and returns the stored one.',
      inputSchema: episodeArgs,
    },
    (args) => answer(async () => (await deps.episodes.create(args, { actor: principal.name, trust: effectiveTrust(principal) })).record),
  );

  server.registerTool(
    'reinforce_plan',
    {
      title: 'Reinforce a plan',
      description:
        'Tell plangraph a plan worked well: it becomes recent again and more salient, so retrieval ranks it higher. ' +
        'Pass the task_descriptor it served and that wording finds the plan directly next time.',
      inputSchema: {
        plan_id: z.uuid(),
        reason: z.string().max(2000).optional(),
        task_descriptor: z.string().min(1).max(2000).optional().describe('The task the plan served; learned as an alias'),
      },
    },
    ({ plan_id, reason, task_descriptor }) =>
      answer(async () => {
        const visible = await deps.plans.get(plan_id, effectiveTrust(principal));
        if (visible.record.type !== 'plan_graph') throw new DomainError('not_a_plan', `record ${plan_id} is ${aRecordType(visible.record.type)}, not a plan graph`);
        if (visible.redacted) throw new DomainError('forbidden', `plan ${plan_id} is above this caller's clearance`, { id: plan_id });
        const input: ReinforceInput = { reason, task_descriptor };
        return deps.reinforcer.reinforce(plan_id, principal.name, input);
      }),
  );
}
