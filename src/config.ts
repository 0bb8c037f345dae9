/**
 * Configuration: parsed once from the environment by one zod schema. Nothing else reads
 * `process.env`. Defaults match docker-compose.yml and the embedded dev setup.
 */
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/** Run inputs larger than this are refused before a run starts (RUN_INPUT_LIMIT_BYTES). */
export const DEFAULT_RUN_INPUT_LIMIT_BYTES = 1_048_576;

export const configSchema = z.object({
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
    .default('postgres://postgres@127.0.0.1:5432/plangraph'),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^:\s/]+:\d+$/, 'must be host:port')
    .default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('plangraph'),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_UI_URL: z.url().optional(),
  TEMPORAL_CLI_PATH: z.string().optional(),
  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: port.default(8080),
  API_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  DATA_DIR: z.string().default('.data'),
  OPS_MODULES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  HTTP_OP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)),
  NODE_OUTPUT_LIMIT_BYTES: z.coerce.number().int().positive().max(2_000_000).default(1_000_000),
  // Run inputs travel in the workflow's start payload, which Temporal caps at 2 MB.
  RUN_INPUT_LIMIT_BYTES: z.coerce.number().int().positive().max(2_000_000).default(DEFAULT_RUN_INPUT_LIMIT_BYTES),
  SELECTION_THRESHOLD: z.coerce.number().min(0).max(1).default(0.7),
  CONSOLIDATION_CRON: z.string().default('0 * * * *'),
  CONSOLIDATION_MODE: z.enum(['cron', 'schedule']).default('cron'),
  CONSOLIDATION_PAGE_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Learned plans get data edges and run inputs (off: each plan replays its first episode's literals). */
  CONSOLIDATION_GENERALISE: z.stringbool().default(true),
  EMBEDDER: z.enum(['hash', 'openai', 'none']).default('hash'),
  EMBEDDING_URL: z.url().default('https://api.openai.com/v1/embeddings'),
  EMBEDDING_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDING_API_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** API key whose principal the MCP server acts as; without it, MCP callers are anonymous (public only). */
  MCP_API_KEY: z.string().min(1).optional(),
});

export type Config = z.infer<typeof configSchema>;

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
  return parsed.data;
}

/** The Temporal Web UI address for this config. */
export function temporalUiUrl(config: Config): string {
  return config.TEMPORAL_UI_URL ?? `http://${config.TEMPORAL_ADDRESS.split(':')[0]}:${config.TEMPORAL_UI_PORT}`;
}
