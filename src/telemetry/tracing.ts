/**
 * OpenTelemetry tracing, on only when an OTLP endpoint is configured: one tracer provider per
 * process exporting spans over OTLP/HTTP (JSON) in batches. Off, no OpenTelemetry package is
 * loaded and nothing is added to the request path, the worker or the workflow bundle.
 */
import type * as OtelApi from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import type * as TemporalOtel from '@temporalio/interceptors-opentelemetry';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config';

export interface Tracing {
  tracer: Tracer;
  /** Workflow spans leave the sandbox through a sink into this processor (the worker wires it). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** The OpenTelemetry API the provider is registered with. */
  api: typeof OtelApi;
  /** Temporal's OpenTelemetry interceptors (client, activity, workflow sink), loaded with tracing. */
  temporal: typeof TemporalOtel;
  /** Flushes every span still buffered (call before exit). */
  shutdown(): Promise<void>;
}

type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SERVICE_NAME'>;

/** Where spans go: the traces endpoint as given, or `<endpoint>/v1/traces` (the OTLP convention). */
export function tracesUrl(config: TracingConfig): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}

let installed: Tracing | undefined;

/**
 * Installs the process's tracer provider when an endpoint is configured (idempotent); `role`
 * names the service when OTEL_SERVICE_NAME does not (`plangraph-api`, `plangraph-worker`, …).
 */
export async function installTracing(config: TracingConfig, role: string): Promise<Tracing | undefined> {
  if (installed) return installed;
  const url = tracesUrl(config);
  if (!url) return undefined;
  // Loaded only here, so a process without tracing never even reads the OpenTelemetry packages.
  const [api, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { OTLPTraceExporter }, { Resource }, sdk, temporal] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@temporalio/interceptors-opentelemetry'),
  ]);
  const resource = new Resource({ 'service.name': config.OTEL_SERVICE_NAME ?? `plangraph-${role}` });
  const spanProcessor = new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1_000 });
  const provider = new sdk.BasicTracerProvider({ resource });
  provider.addSpanProcessor(spanProcessor);
  // Async context keeps a span current across awaits, so the Temporal client's start span nests
  // under the HTTP request that made it; W3C headers carry a caller's trace into the API.
  provider.register({ contextManager: new AsyncLocalStorageContextManager().enable(), propagator: new W3CTraceContextPropagator() });
  installed = {
    tracer: api.trace.getTracer('plangraph'),
    spanProcessor,
    resource,
    api,
    temporal,
    async shutdown() {
      await provider.shutdown();
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
      installed = undefined;
    },
  };
  return installed;
}

/** The process's tracing, if installed. */
export function activeTracing(): Tracing | undefined {
  return installed;
}
