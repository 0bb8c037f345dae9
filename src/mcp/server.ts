/**
 * The MCP server (stdio): plangraph as tools for agent frameworks. It acts as the principal of
 * MCP_API_KEY when set — the same API keys and trust rules as the HTTP API — and as an anonymous
 * caller (public records only) without one. stdout carries the protocol; logs go to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ANONYMOUS } from '../domain/principal';
import type { Config } from '../config';
import { principalForKey } from '../store/api-keys';
import { createIntentComponents } from '../intents/wiring';
import { createServices, type Services } from '../services';
import { createApprover } from '../runs/approve-run';
import { createResumer } from '../runs/resume-run';
import { createPendingApprovals } from '../runs/pending-approvals';
import { createRunLister } from '../store/run-list';
import { registerRunActionTools } from './run-action-tools';
import { registerTools } from './tools';

export const MCP_SERVER_INFO = { name: 'plangraph', version: '0.1.0' } as const;

/** An MCP server with every plangraph tool, acting as the principal of `apiKey` (anonymous without). */
export async function createMcpServer(services: Services, apiKey: string | undefined): Promise<McpServer> {
  const principal = await principalForKey(services.apiKeys, apiKey, ANONYMOUS);
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      'plangraph stores plan graphs distilled from agent episodes and runs them as durable Temporal workflows. ' +
      'Use find_plans or run_intent for a task; run_plan when you know the plan id; get_run to follow a run; ' +
      'submit_episode to record what you did; reinforce_plan when a plan served you well; ' +
      'list_approvals and decide_approval for runs that wait for a person; resume_run to rerun only what failed.',
  });
  const components = createIntentComponents(services);
  registerTools(server, {
    ...components,
    principal,
    retriever: services.retriever,
    plans: services.plans,
    reinforcer: services.reinforcer,
    episodes: services.episodes,
  });
  registerRunActionTools(server, {
    principal,
    pending: createPendingApprovals({ client: services.temporal.client, lister: createRunLister(services.db) }),
    approver: createApprover({ client: services.temporal.client, viewer: components.viewer }),
    resumer: createResumer({
      client: services.temporal.client,
      config: services.config,
      records: services.records,
      viewer: components.viewer,
      knownOps: new Set(services.registry.keys()),
    }),
  });
  return server;
}

/** Serves MCP over stdin/stdout until the client closes the stream. */
export async function runMcpServer(config: Config, log: (line: string) => void): Promise<void> {
  const services = await createServices(config);
  const server = await createMcpServer(services, config.MCP_API_KEY).catch(async (err: unknown) => {
    await services.close();
    throw err;
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // Ends when the client closes the session or its end of stdin.
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  log(`MCP server ready on stdio (task queue "${config.TEMPORAL_TASK_QUEUE}", ${config.MCP_API_KEY ? 'acting as the MCP_API_KEY principal' : 'anonymous: public records only'})`);
  await closed;
  await services.close();
}
