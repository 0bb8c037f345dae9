/**
 * What an op is: a named, zod-validated function that a plan node runs as a Temporal activity
 * whose type is the op name. Pure definitions, shared by the built-ins and user op modules.
 */
import type { z } from 'zod';

/** What an op sees besides its params: its node, its data inputs and the activity context. */
export interface OpContext {
  nodeId: string;
  /** Outputs of the node's data predecessors, keyed by node id. */
  inputs: Record<string, unknown>;
  /** Heartbeats progress and throws once the run cancels this node. */
  heartbeat(details?: unknown): void;
  /** Aborted when Temporal cancels the activity. */
  signal: AbortSignal;
  attempt: number;
}

export interface OpDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: S;
  /**
   * A cheap, pure op (no I/O, milliseconds of work): nodes using it run as local activities on
   * the executor's worker, saving a server round trip each, unless their policy says otherwise.
   * Their attempts are capped at 30 s and cannot heartbeat.
   */
  local?: boolean;
  run(params: z.infer<S>, ctx: OpContext): Promise<unknown>;
}

/** Declares an op; its params are validated against the schema before it runs. */
export function defineOp<S extends z.ZodType>(definition: OpDefinition<S>): OpDefinition<S> {
  return definition;
}
