/** Builders for plan records used across integration tests. */
import type { PlanGraphPayloadInput, Sensitivity } from '../../src/domain/records';
import { planGraphPayloadSchema } from '../../src/domain/records';
import type { Db } from '../../src/db/client';
import { createRecordStore, type RecordStore } from '../../src/store/records';
import { uid } from './harness';

type NodeSpec = { id: string; op: string; params?: Record<string, unknown>; guards?: Record<string, unknown>; policy?: Record<string, unknown>; for_each?: string };

export interface PlanSpec {
  nodes: NodeSpec[];
  edges?: Array<{ from: string; to: string; kind: 'data' | 'control' }>;
  intent?: string;
  description?: string;
  examples?: string[];
  constraints?: Record<string, unknown>;
  inputs_schema?: Record<string, unknown>;
  sensitivity?: Sensitivity;
  scope?: string;
}

/**
 * Stores a plan graph built from nodes and edges; returns the record. Pass the services' record
 * store instead of a Db when the test needs the plan embedded (retrieval, intents).
 */
export async function storePlan(target: Db | Pick<RecordStore, 'create'>, spec: PlanSpec) {
  const payload = planGraphPayloadSchema.parse({
    kind: 'plan_graph',
    plan_id: uid('plan'),
    intent: spec.intent ?? 'test',
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.examples ? { examples: spec.examples } : {}),
    nodes: spec.nodes,
    edges: spec.edges ?? [],
    constraints: spec.constraints ?? {},
    inputs_schema: spec.inputs_schema ?? {},
  } satisfies PlanGraphPayloadInput);
  const store = 'create' in target ? target : createRecordStore(target);
  return store.create({ type: 'plan_graph', sensitivity: spec.sensitivity ?? 'low', confidence: 0.8, scope: spec.scope ?? '', payload });
}

/** A chain n1 -> n2 -> … of the given op. */
export function chain(n: number, op = 'noop', kind: 'data' | 'control' = 'control') {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${String(i + 1).padStart(3, '0')}`, op }));
  const edges = nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id, kind }));
  return { nodes, edges };
}
