/**
 * The one way plangraph opens a Temporal client connection.
 */
import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config';
import { DomainError } from '../domain/errors';

/** A history page of a plan with thousands of nodes is larger than gRPC's 4 MB default. */
const CHANNEL_ARGS = { 'grpc.max_receive_message_length': 128 * 1024 * 1024 };

export interface TemporalClient {
  connection: Connection;
  client: Client;
  close(): Promise<void>;
}

/** Connects to the configured server, or fails naming TEMPORAL_ADDRESS. */
export async function connectTemporal(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>): Promise<TemporalClient> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS, connectTimeout: 5_000, channelArgs: CHANNEL_ARGS });
  } catch (err) {
    throw new DomainError('unavailable', `cannot reach Temporal at TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}: ${(err as Error).message}`);
  }
  return { connection, client: new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }), close: () => connection.close() };
}
