/**
 * The package entry: the HTTP client for agents talking to a running plangraph, and the same
 * operations as a library for TypeScript agents and services that embed it.
 */

// Talking to a running plangraph over HTTP.
export { createPlangraphClient, PlangraphError } from './client';
export type * from './client';

// Configuration and wiring.
export { loadConfig, ConfigError, type Config } from './config';
export { createServices, type Services } from './services';
export { DomainError, ERROR_CODES, type ErrorCode } from './domain/errors';

// Records, plans and their rules.
export * from './domain/records';
export { parsePlanGraph, validatePlanGraph } from './domain/graph';
export type { NodeStatus, RunStatus, RunState } from './domain/run-state';
export { defineOp, type OpDefinition, type OpContext } from './ops/define-op';

// Retrieval, runs and intents.
export { createRetriever, type RetrieveResult, type ScoredCandidate } from './retrieval/retrieve';
export { startPlanRun } from './runs/start-run';
export { runPlan } from './runs/run-plan';
export { followRun } from './runs/follow-run';
export { createIntentComponents } from './intents/wiring';
export { createIntentService, idempotentWorkflowId, type IntentInput } from './intents/submit-intent';
export { createRunViewer, runUiUrl } from './intents/run-view';
export * from './intents/schemas';
export { ANONYMOUS, effectiveTrust, LOCAL_OPERATOR, type Principal } from './domain/principal';
export { createApiKeyStore } from './store/api-keys';
export { runConsolidationOnce } from './consolidation/run-once';

// Processes: the API, the worker and the MCP server.
export { buildApi } from './api/server';
export { createWorker } from './temporal/worker';
export { createMcpServer } from './mcp/server';
