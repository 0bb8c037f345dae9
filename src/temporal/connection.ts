/**
 * The one way plangraph opens a Temporal connection: the address, namespace, API key, TLS and
 * gRPC headers resolved by loadConfig (environment and Temporal profile), for the client and the
 * worker's native connection alike.
 */
import { Client, Connection, type ConnectionLike } from '@temporalio/client';
import type { Config, TemporalConnectionSettings } from '../config';
import { DomainError } from '../domain/errors';
import { tlsHandshakeProblem } from './tls-probe';
import { activeTracing } from '../telemetry/tracing';

/** A history page of a plan with thousands of nodes is larger than gRPC's 4 MB default. */
const CHANNEL_ARGS = { 'grpc.max_receive_message_length': 128 * 1024 * 1024 };

export type TemporalTarget = Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'> & { temporalConnection?: TemporalConnectionSettings };

export interface TemporalClient {
  connection: Connection;
  client: Client;
  close(): Promise<void>;
}

/** What Connection.connect and NativeConnection.connect both take, from the config. */
export function temporalConnectionOptions(target: Omit<TemporalTarget, 'TEMPORAL_NAMESPACE'>) {
  return { address: target.TEMPORAL_ADDRESS, ...target.temporalConnection };
}

/**
 * One line saying why Temporal could not be reached, naming the setting to check: gRPC's own
 * messages run to several lines, and a refused certificate reads as a mere timeout.
 */
export async function connectFailure(target: Omit<TemporalTarget, 'TEMPORAL_NAMESPACE'>, err: unknown): Promise<DomainError> {
  const settings = target.temporalConnection ?? {};
  const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  const where = `TEMPORAL_ADDRESS=${target.TEMPORAL_ADDRESS}`;
  const tls = settings.tls !== undefined && settings.tls !== false && settings.tls !== null;
  const handshake = tls ? await tlsHandshakeProblem(target.TEMPORAL_ADDRESS, settings.tls as Exclude<typeof settings.tls, false | undefined>) : undefined;
  if (handshake) {
    return new DomainError(
      'unavailable',
      `TLS handshake with Temporal at ${where} failed (check TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME and the client certificate): ${handshake}`,
    );
  }
  if (settings.apiKey && /unauthenticated|permission|api key|authoriz/i.test(message)) {
    return new DomainError('unavailable', `Temporal at ${where} refused the credentials (check TEMPORAL_API_KEY and TEMPORAL_NAMESPACE): ${message}`);
  }
  return new DomainError('unavailable', `cannot reach Temporal at ${where}${tls ? ' over TLS' : ''}: ${message}`);
}

/** Connects to the configured server and checks it answers, or fails with one line naming the setting. */
export async function connectTemporal(target: TemporalTarget, options: { connectTimeoutMs?: number } = {}): Promise<TemporalClient> {
  let connection: Connection;
  try {
    const connectTimeout = options.connectTimeoutMs ?? 5_000;
    connection = await Connection.connect({ ...temporalConnectionOptions(target), connectTimeout, channelArgs: CHANNEL_ARGS });
  } catch (err) {
    throw await connectFailure(target, err);
  }
  return { connection, client: clientOver(connection, target.TEMPORAL_NAMESPACE), close: () => connection.close() };
}

/**
 * A client over an open connection. Over a worker's NativeConnection, workflows it starts with
 * `requestEagerStart` hand their first workflow task straight to that worker when it has a slot.
 */
export function clientOver(connection: ConnectionLike, namespace: string): Client {
  // With tracing on, starting a workflow is a span whose context travels in the workflow's headers.
  const tracing = activeTracing();
  const interceptors = tracing ? { workflow: [new tracing.temporal.OpenTelemetryWorkflowClientInterceptor()] } : undefined;
  return new Client({ connection, namespace, interceptors });
}
