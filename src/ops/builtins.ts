/**
 * Built-in ops every worker provides. Ops that touch the host (shell, files) deliberately do
 * not exist here: a deployment that wants them adds its own module via OPS_MODULES.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { defineOp, type OpDefinition } from './define-op';

/** Does nothing and returns null: the cheapest possible node. */
export const noopOp = defineOp({
  name: 'noop',
  local: true,
  description: 'Does nothing; returns null.',
  params: z.object({}).catchall(z.unknown()),
  run: async () => null,
});

/** Returns its params and its data inputs, for wiring and debugging plans. */
export const echoOp = defineOp({
  name: 'echo',
  local: true,
  description: 'Returns its params (and data inputs under "inputs" when it has any).',
  params: z.record(z.string(), z.unknown()),
  run: async (params, ctx) => (Object.keys(ctx.inputs).length > 0 ? { ...params, inputs: ctx.inputs } : params),
});

/** Sleeps, heartbeating, and stops promptly when the run cancels it. */
export const sleepOp = defineOp({
  name: 'sleep',
  description: 'Waits ms milliseconds, heartbeating; cancellable.',
  params: z.object({ ms: z.number().int().min(0).max(86_400_000) }),
  run: async ({ ms }, ctx) => {
    const started = Date.now();
    const tick = Math.min(1000, Math.max(50, ms / 10));
    while (Date.now() - started < ms) {
      ctx.heartbeat({ elapsed_ms: Date.now() - started });
      await new Promise<void>((resolve, reject) => {
        // One listener per tick, removed when the tick ends: a long sleep must not pile them up.
        const onAbort = () => {
          clearTimeout(timer);
          reject(ctx.signal.reason ?? new Error('cancelled'));
        };
        const timer = setTimeout(() => {
          ctx.signal.removeEventListener('abort', onAbort);
          resolve();
        }, Math.min(tick, ms - (Date.now() - started)));
        ctx.signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    return { slept_ms: Date.now() - started };
  },
});

/** Picks fields (dot paths) out of a JSON value, e.g. from a data input. */
export const jsonPickOp = defineOp({
  name: 'json_pick',
  local: true,
  description: 'Returns {key: value at path} for each entry of "fields" (dot paths into "from").',
  params: z.object({ from: z.unknown(), fields: z.record(z.string(), z.string()) }),
  run: async ({ from, fields }) => {
    const out: Record<string, unknown> = {};
    for (const [key, path] of Object.entries(fields)) {
      out[key] = path.split('.').reduce<unknown>(
        (v, part) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined),
        from,
      ) ?? null;
    }
    return out;
  },
});

/** Shallow-merges objects, later ones winning; with no "objects", merges the data inputs. */
export const jsonMergeOp = defineOp({
  name: 'json_merge',
  local: true,
  description: 'Shallow-merges "objects" (or, without it, the data inputs in node-id order).',
  params: z.object({ objects: z.array(z.record(z.string(), z.unknown())).optional() }),
  run: async ({ objects }, ctx) => {
    const sources = objects ?? Object.keys(ctx.inputs).sort().map((id) => ctx.inputs[id]);
    return Object.assign({}, ...sources.filter((s) => s !== null && typeof s === 'object'));
  },
});

/** Options of the HTTP op that come from configuration, not from plans. */
export interface HttpOpOptions {
  /** Hosts a plan may call; empty allows every host. */
  allowedHosts: readonly string[];
}

const httpParams = z.object({
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.unknown().optional(),
  timeout_ms: z.number().int().min(1).max(300_000).default(10_000),
  max_response_bytes: z.number().int().min(1).max(1_000_000).default(256_000),
  fail_on_status: z.boolean().default(true),
});
type HttpParams = z.infer<typeof httpParams>;

/** How often a waiting HTTP request heartbeats (Temporal throttles what it sends on). */
const HTTP_HEARTBEAT_MS = 1_000;

/** An HTTP request with a timeout and a response-size cap, limited to allowed hosts. */
export function createHttpRequestOp(options: HttpOpOptions) {
  return defineOp({
    name: 'http_request',
    description: 'Makes an HTTP request; returns {status, headers, body}.',
    params: httpParams,
    run: async (p, ctx) => {
      const host = new URL(p.url).hostname.toLowerCase();
      if (options.allowedHosts.length > 0 && !options.allowedHosts.includes(host)) {
        throw ApplicationFailure.nonRetryable(`host "${host}" is not in HTTP_OP_ALLOWED_HOSTS`, 'host_not_allowed');
      }
      // Temporal tells an activity it is cancelled only in the answer to a heartbeat: without
      // them a cancelled run's request ran on to its end.
      ctx.heartbeat();
      const beating = setInterval(() => ctx.heartbeat(), HTTP_HEARTBEAT_MS);
      try {
        return await sendHttp(p, host, AbortSignal.any([ctx.signal, AbortSignal.timeout(p.timeout_ms)]), options);
      } finally {
        clearInterval(beating);
      }
    },
  });
}

/**
 * A request that got no answer, with the reason fetch keeps in `cause` (its own message is only
 * "fetch failed"): retried like any network failure, except a port fetch refuses to call at all.
 */
function networkFailure(err: unknown, host: string): unknown {
  const cause = err instanceof TypeError ? err.cause : undefined;
  if (!(cause instanceof Error)) return err;
  const code = (cause as { code?: unknown }).code;
  const reason = typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  if (cause.message === 'bad port') return ApplicationFailure.nonRetryable(`request to ${host} not sent: fetch refuses to call that port`, 'http_bad_port');
  return ApplicationFailure.retryable(`request to ${host} failed: ${reason}`, 'http_network_error');
}

/** Sends the request and reads the answer, at most `max_response_bytes` of it. */
async function sendHttp(p: HttpParams, host: string, signal: AbortSignal, options: HttpOpOptions) {
  const hasBody = p.body !== undefined && p.method !== 'GET' && p.method !== 'HEAD';
  const response = await fetch(p.url, {
    method: p.method,
    headers: hasBody && typeof p.body !== 'string' ? { 'content-type': 'application/json', ...p.headers } : p.headers,
    body: hasBody ? (typeof p.body === 'string' ? p.body : JSON.stringify(p.body)) : undefined,
    signal,
    // A followed redirect would reach a host the allowlist never checked: return the 3xx instead.
    redirect: options.allowedHosts.length > 0 ? 'manual' : 'follow',
  }).catch((err: unknown) => {
    throw networkFailure(err, host);
  });
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > p.max_response_bytes) {
      await reader.cancel();
      throw ApplicationFailure.nonRetryable(`response from ${host} exceeds ${p.max_response_bytes} bytes`, 'response_too_large');
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (p.fail_on_status && response.status >= 400) {
    // 4xx will not get better by retrying; 5xx might.
    const message = `${p.method} ${p.url} answered ${response.status}`;
    if (response.status < 500) throw ApplicationFailure.nonRetryable(message, 'http_status');
    throw ApplicationFailure.retryable(message, 'http_status');
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

/** Every built-in op, configured. */
export function builtinOps(options: HttpOpOptions): OpDefinition[] {
  return [noopOp, echoOp, sleepOp, jsonPickOp, jsonMergeOp, createHttpRequestOp(options)] as OpDefinition[];
}
