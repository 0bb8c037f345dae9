/**
 * Configuration: parsed once from the environment by one zod schema. Nothing else reads
 * `process.env`. Defaults match docker-compose.yml and the embedded dev setup.
 */
import { existsSync } from 'node:fs';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { z } from 'zod';
import { decimalInteger } from './domain/decimal-integer';

const port = decimalInteger(0, 65535);
const temporalAddress = z.string().regex(/^[^:\s/]+:\d+$/, 'must be host:port');

/** Where plangraph looks for Temporal when neither the environment nor a profile says. */
export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';

/** Run inputs larger than this are refused before a run starts (RUN_INPUT_LIMIT_BYTES). */
export const DEFAULT_RUN_INPUT_LIMIT_BYTES = 1_048_576;
/** Node outputs larger than this fail the node (NODE_OUTPUT_LIMIT_BYTES). */
export const DEFAULT_NODE_OUTPUT_LIMIT_BYTES = 1_000_000;

export const configSchema = z.object({
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
    .default('postgres://postgres@127.0.0.1:5432/plangraph'),
  // Temporal's own client settings: read by @temporalio/envconfig (with the profile file named
  // by TEMPORAL_CONFIG_FILE/TEMPORAL_PROFILE) and listed here so they are validated and known.
  TEMPORAL_ADDRESS: temporalAddress.optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).optional(),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_PROFILE: z.string().min(1).optional(),
  TEMPORAL_CONFIG_FILE: z.string().min(1).optional(),
  TEMPORAL_TLS: z.enum(['true', 'false', '1', '0']).optional(),
  TEMPORAL_TLS_CLIENT_CERT_PATH: z.string().optional(),
  TEMPORAL_TLS_CLIENT_CERT_DATA: z.string().optional(),
  TEMPORAL_TLS_CLIENT_KEY_PATH: z.string().optional(),
  TEMPORAL_TLS_CLIENT_KEY_DATA: z.string().optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: z.string().optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: z.string().optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('plangraph'),
  /** host:port where a worker serves the Temporal SDK's metrics (Prometheus text at /metrics). */
  WORKER_METRICS_ADDRESS: z.string().regex(/^[^:\s/]+:\d+$/, 'must be host:port').optional(),
  /** OTLP/HTTP collector base URL (spans go to `<url>/v1/traces`); tracing is off without it. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** The full traces URL, when it is not `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  /** service.name of the spans (default `plangraph-<api|worker|dev|…>`). */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  /** On SIGTERM a worker stops polling and lets running activities finish for this long. */
  WORKER_SHUTDOWN_GRACE_MS: decimalInteger(0).default(30_000),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_UI_URL: z.url().optional(),
  TEMPORAL_CLI_PATH: z.string().optional(),
  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: port.default(8080),
  API_BODY_LIMIT_BYTES: decimalInteger(1).default(1_048_576),
  DATA_DIR: z.string().default('.data'),
  OPS_MODULES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  HTTP_OP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)),
  NODE_OUTPUT_LIMIT_BYTES: decimalInteger(1, 2_000_000).default(DEFAULT_NODE_OUTPUT_LIMIT_BYTES),
  // Run inputs travel in the workflow's start payload, which Temporal caps at 2 MB.
  /** Plans with more nodes run partitioned, this many nodes per workflow run (docs/execution.md#plans-of-any-size). */
  PLAN_PARTITION_NODES: decimalInteger(2, 5_000).default(2_000),
  RUN_INPUT_LIMIT_BYTES: decimalInteger(1, 2_000_000).default(DEFAULT_RUN_INPUT_LIMIT_BYTES),
  /** calibrated: fused lexical + dense match, confidence = estimated P(top plan is right); membrane: the seed formula. */
  SELECTION_MODE: z.enum(['calibrated', 'membrane']).default('calibrated'),
  /** Auto-run threshold on the selection confidence; unset = the mode's default (0.87 calibrated, 0.7 membrane). */
  SELECTION_THRESHOLD: z.coerce.number().min(0).max(1).optional(),
  CONSOLIDATION_CRON: z.string().default('0 * * * *'),
  CONSOLIDATION_MODE: z.enum(['cron', 'schedule']).default('cron'),
  CONSOLIDATION_PAGE_SIZE: decimalInteger(1, 5000).default(500),
  /** Learned plans get data edges and run inputs (off: each plan replays its first episode's literals). */
  CONSOLIDATION_GENERALISE: z.stringbool().default(true),
  EMBEDDER: z.enum(['semantic', 'hash', 'openai', 'none']).default('semantic'),
  EMBEDDING_URL: z.url().default('https://api.openai.com/v1/embeddings'),
  EMBEDDING_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDING_API_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** API key whose principal the MCP server acts as; without it, MCP callers are anonymous (public only). */
  MCP_API_KEY: z.string().min(1).optional(),
});

/** How to reach Temporal beyond its address: what Connection and NativeConnection take alike. */
export interface TemporalConnectionSettings {
  apiKey?: string;
  /** TLS settings; `true` for TLS with the system's roots (an API key alone implies it). */
  tls?: TLSConfig | boolean;
  /** Extra gRPC headers (TEMPORAL_GRPC_META_* or a profile's grpc_meta). */
  metadata?: Record<string, string>;
}

export type Config = Omit<z.infer<typeof configSchema>, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'> & {
  /** Resolved: environment, then the Temporal profile, then 127.0.0.1:7233. */
  TEMPORAL_ADDRESS: string;
  /** Resolved: environment, then the Temporal profile, then `default`. */
  TEMPORAL_NAMESPACE: string;
  temporalConnection: TemporalConnectionSettings;
};

/** A configuration problem, reported as one line naming the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment (or the given overrides) into a Config, or throws a ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((key) => [key, env[key] === '' ? undefined : env[key]])
      .filter(([, v]) => v !== undefined),
  );
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const key = String(first?.path[0] ?? 'config');
    throw new ConfigError(`invalid ${key}=${JSON.stringify(env[key] ?? '')}: ${first?.message ?? 'invalid value'}`);
  }
  return { ...parsed.data, ...temporalSettings(env) };
}

/** Variables envconfig reads: Temporal's own, and those that locate the default profile file. */
function envconfigVariables(env: Record<string, string | undefined>): Record<string, string> {
  const wanted = (key: string) => key.startsWith('TEMPORAL_') || ['HOME', 'XDG_CONFIG_HOME', 'APPDATA'].includes(key);
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => wanted(entry[0]) && entry[1] !== undefined && entry[1] !== ''),
  );
}

/**
 * Resolves the Temporal connection the way Temporal's own tools do (@temporalio/envconfig): the
 * profile TEMPORAL_PROFILE (or `default`) of the TOML file TEMPORAL_CONFIG_FILE (or
 * ~/.config/temporalio/temporal.toml), overridden by TEMPORAL_* variables.
 */
function temporalSettings(env: Record<string, string | undefined>): Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'temporalConnection'> {
  const named = [
    env.TEMPORAL_CONFIG_FILE && `TEMPORAL_CONFIG_FILE=${env.TEMPORAL_CONFIG_FILE}`,
    env.TEMPORAL_PROFILE && `TEMPORAL_PROFILE=${env.TEMPORAL_PROFILE}`,
    Object.keys(env).some((key) => key.startsWith('TEMPORAL_TLS') && env[key]) && 'TEMPORAL_TLS_*',
  ].filter(Boolean);
  const invalid = (cause: string) => new ConfigError(`invalid Temporal connection settings${named.length ? ` (${named.join(', ')})` : ''}: ${cause}`);
  // envconfig reads a missing default file as no profile; a file named on purpose must exist.
  if (env.TEMPORAL_CONFIG_FILE && !existsSync(env.TEMPORAL_CONFIG_FILE)) throw invalid(`no such file ${env.TEMPORAL_CONFIG_FILE}`);
  let resolved: ReturnType<typeof loadClientConnectConfig>;
  try {
    resolved = loadClientConnectConfig({ overrideEnvVars: envconfigVariables(env) });
  } catch (err) {
    throw invalid(firstLine(err));
  }
  const { address, apiKey, tls, metadata } = resolved.connectionOptions;
  const checked = temporalAddress.safeParse(address ?? DEFAULT_TEMPORAL_ADDRESS);
  if (!checked.success) throw new ConfigError(`invalid Temporal address ${JSON.stringify(address)} from the Temporal profile: must be host:port`);
  return {
    TEMPORAL_ADDRESS: checked.data,
    TEMPORAL_NAMESPACE: resolved.namespace ?? 'default',
    temporalConnection: {
      ...(apiKey !== undefined && { apiKey }),
      ...(tls !== undefined && tls !== null && { tls }),
      ...(metadata !== undefined && Object.keys(metadata).length > 0 && { metadata: metadata as Record<string, string> }),
    },
  };
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}

/** The Temporal Web UI address for this config. */
export function temporalUiUrl(config: Config): string {
  return config.TEMPORAL_UI_URL ?? `http://${config.TEMPORAL_ADDRESS.split(':')[0]}:${config.TEMPORAL_UI_PORT}`;
}
