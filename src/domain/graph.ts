/**
 * Plan graph validity (docs/plan-schema.md#validation): every problem is reported at once, each with a stable code,
 * a path into the payload and a message naming the node or edge.
 */
import { checkGuard, isEmptyGuard } from './guards';
import { planGraphPayloadSchema, type Duration, type PlanGraphPayload, type PlanNode } from './records';
import { findCycle, indexGraph } from './graph-index';
import { durationMs, localExecutionProblems } from './node-execution';
import { startCheckIssues } from './start-checks';
import { BUILTIN_EXECUTOR_OPS, RUN_GATE_ID } from './approvals';
import { approvalIssues } from './approval-validation';
import { checkForEach, itemOfActivityId } from './map-node';
import { collectTemplateRefs, parseRef } from './refs';
import { isSubPlanNode, subPlanNodeProblem } from './sub-plan';
import { fieldIssues } from './schema-issues';
import type { z } from 'zod';

export { findCycle, indexGraph, topologicalOrder, type GraphIndex } from './graph-index';

export const PLAN_ERROR_CODES = [
  'empty_node_id',
  'duplicate_node',
  'dangling_edge',
  'duplicate_edge',
  'self_edge',
  'cycle',
  'unknown_op',
  'undeclared_data_ref',
  'invalid_guard',
  'invalid_schema',
  'invalid_execution',
  'invalid_approval',
  'reserved_node_id',
  'invalid_for_each',
  'item_ref_outside_map',
  'invalid_sub_plan',
  'invalid_duration',
  'too_many_nodes',
] as const;
export type PlanErrorCode = (typeof PLAN_ERROR_CODES)[number];

export interface PlanIssue {
  code: PlanErrorCode;
  path: string;
  message: string;
  /** The node ids on the cycle, for `cycle` issues. */
  nodes?: string[];
}

export interface ValidateOptions {
  /** Ops the worker provides; when given, unknown ops are reported. */
  knownOps?: ReadonlySet<string>;
  /**
   * Checks that `inputs_schema` compiles (inputs-schema.ts): given by the writers and starters
   * of plans, never by workflows, whose bundle Ajv stays out of.
   */
  inputsSchemaIssues?: (schema: Record<string, unknown>) => PlanIssue[];
  /**
   * Runs the checks added after runs were already in flight (start-checks.ts): writers and
   * starters pass it, workflows do not, so the histories of runs started before replay unchanged.
   */
  startChecks?: boolean;
}

/** A node's policy durations by field name (retry intervals under `retry.`). */
function policyDurations(node: PlanNode): Array<[string, Duration]> {
  const policy = node.policy ?? {};
  const fields: Array<[string, Duration | undefined]> = [
    ['start_to_close_timeout', policy.start_to_close_timeout],
    ['schedule_to_close_timeout', policy.schedule_to_close_timeout],
    ['heartbeat_timeout', policy.heartbeat_timeout],
    ['retry.initial_interval', policy.retry?.initial_interval],
    ['retry.maximum_interval', policy.retry?.maximum_interval],
  ];
  return fields.filter((f): f is [string, Duration] => f[1] !== undefined);
}

/**
 * The schema refuses these on write; plans stored before it did are refused here, at start,
 * rather than by Temporal inside the run (a zero timeout reads as unset, a tab fails to parse).
 */
const durationIssue = (path: string, what: string, value: Duration): PlanIssue => ({
  code: 'invalid_duration',
  path,
  message: `${what} ${JSON.stringify(value)} is not a positive duration such as "250ms", "1.5s", "5m" or "2h"`,
});

/**
 * Why a node id would clash with an activity id the executor gives its own activities (a map
 * item's `m[3]`, a task boundary's `$task-boundary-1`): Temporal refuses a second pending activity
 * of one id, and the run would stall. Undefined when it cannot.
 */
function reservedActivityId(id: string, mapIds: ReadonlySet<string>): string | undefined {
  // `$run` is the run gate's id, refused only with a gate (approval-validation.ts).
  if (id.startsWith('$') && id !== RUN_GATE_ID) return `node id ${JSON.stringify(id)} is reserved: ids starting with "$" are the executor's own`;
  const item = itemOfActivityId(id, mapIds);
  return item && `node id ${JSON.stringify(id)} is the activity id of item ${item.index} of map node ${JSON.stringify(item.mapId)}`;
}

/** Validates a parsed plan graph payload and returns every problem found. */
export function validatePlanGraph(plan: PlanGraphPayload, options: ValidateOptions = {}): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const seen = new Map<string, number>();
  const mapIds = new Set(plan.nodes.filter((node) => node.for_each !== undefined).map((node) => node.id));
  plan.nodes.forEach((node, i) => {
    if (node.id.trim() === '') {
      issues.push({ code: 'empty_node_id', path: `nodes[${i}].id`, message: `node at index ${i} has an empty id` });
      return;
    }
    if (node.id === '__proto__') {
      // Outputs are kept in objects keyed by node id, where this key would set the prototype instead.
      issues.push({ code: 'reserved_node_id', path: `nodes[${i}].id`, message: 'node id "__proto__" is reserved' });
    }
    const clash = reservedActivityId(node.id, mapIds);
    if (clash) issues.push({ code: 'reserved_node_id', path: `nodes[${i}].id`, message: clash });
    const first = seen.get(node.id);
    if (first !== undefined) {
      issues.push({
        code: 'duplicate_node',
        path: `nodes[${i}].id`,
        message: `node id "${node.id}" is used by nodes[${first}] and nodes[${i}]`,
      });
    } else seen.set(node.id, i);
    for (const [field, value] of policyDurations(node)) {
      if (!(durationMs(value) > 0)) issues.push(durationIssue(`nodes[${i}].policy.${field}`, `node "${node.id}": ${field}`, value));
    }
    if (node.policy?.execution === 'local') {
      for (const problem of localExecutionProblems(node)) {
        issues.push({ code: 'invalid_execution', path: `nodes[${i}].policy.execution`, message: `node "${node.id}" cannot run locally: ${problem}` });
      }
    }
    if (isSubPlanNode(node)) {
      const problem = subPlanNodeProblem(node);
      if (problem) issues.push({ code: 'invalid_sub_plan', path: `nodes[${i}].${problem.field}`, message: problem.message });
      // Built-in ops (approval) are run by the executor itself, not by a worker.
    } else if (options.knownOps && !options.knownOps.has(node.op) && !BUILTIN_EXECUTOR_OPS.has(node.op)) {
      issues.push({
        code: 'unknown_op',
        path: `nodes[${i}].op`,
        message: `node "${node.id}" uses op "${node.op}", which no op loaded here provides (the built-in ops and OPS_MODULES)`,
      });
    }
  });

  const edgeKeys = new Set<string>();
  plan.edges.forEach((edge, i) => {
    const label = `edge ${edge.from} -> ${edge.to} (${edge.kind})`;
    for (const end of ['from', 'to'] as const) {
      if (!seen.has(edge[end])) {
        issues.push({ code: 'dangling_edge', path: `edges[${i}].${end}`, message: `${label}: node "${edge[end]}" does not exist` });
      }
    }
    if (edge.from === edge.to) {
      issues.push({ code: 'self_edge', path: `edges[${i}]`, message: `${label}: a node cannot depend on itself` });
    }
    const key = `${edge.from}\u0000${edge.to}\u0000${edge.kind}`;
    if (edgeKeys.has(key)) issues.push({ code: 'duplicate_edge', path: `edges[${i}]`, message: `${label} is declared twice` });
    edgeKeys.add(key);
  });

  const timeout = plan.constraints.timeout;
  if (timeout !== undefined && !(durationMs(timeout) > 0)) issues.push(durationIssue('constraints.timeout', 'the run\'s timeout', timeout));
  issues.push(...approvalIssues(plan));
  issues.push(...(options.inputsSchemaIssues?.(plan.inputs_schema) ?? []));
  if (options.startChecks) issues.push(...startCheckIssues(plan));

  const index = indexGraph(plan.nodes, plan.edges);
  // Report node-disjoint cycles one by one: each found cycle's nodes are set aside and the rest searched again.
  let remaining = index;
  for (let cycle = findCycle(remaining); cycle; cycle = findCycle(remaining)) {
    issues.push({ code: 'cycle', path: 'edges', message: `cycle through nodes ${[...cycle, cycle[0]].join(' -> ')}`, nodes: cycle });
    const onCycle = new Set(cycle);
    remaining = indexGraph(remaining.nodeIds.filter((id) => !onCycle.has(id)).map((id) => ({ id })), plan.edges);
  }

  const nodeIds = index.nodeIds;
  plan.nodes.forEach((node, i) => {
    const preds = index.preds.get(node.id);
    const dataPreds = new Set(preds?.data ?? []);
    const anyPreds = new Set([...(preds?.data ?? []), ...(preds?.control ?? [])]);
    const guard = isEmptyGuard(node.guards) ? { problems: [], refs: [] } : checkGuard(node.guards, `nodes[${i}].guards`);
    for (const problem of guard.problems) {
      issues.push({ code: 'invalid_guard', path: problem.path, message: `node "${node.id}": ${problem.message}` });
    }
    if (node.for_each !== undefined) {
      const check = checkForEach(node, nodeIds, dataPreds);
      if (!check.ok) issues.push({ code: check.problem === 'not_a_ref' ? 'invalid_for_each' : 'undeclared_data_ref', path: `nodes[${i}].for_each`, message: check.message });
    }
    const refs = [
      ...collectTemplateRefs(node.params, `nodes[${i}].params`).map((r) => ({ ...r, inGuard: false })),
      ...guard.refs.map((ref) => ({ ref, path: `nodes[${i}].guards`, inGuard: true })),
    ];
    for (const { ref, path, inGuard } of refs) {
      const parsed = parseRef(ref, nodeIds);
      if (!parsed) {
        // A malformed reference would silently resolve to nothing at run time.
        issues.push({
          code: inGuard ? 'invalid_guard' : 'undeclared_data_ref',
          path,
          message: `node "${node.id}" references "${ref}", which is not inputs.<path>, nodes.<id>.output.<path>, nodes.<id>.state, run.id or run.workflow_id`,
        });
        continue;
      }
      if ((parsed.root === 'item' || parsed.root === 'index') && node.for_each === undefined) {
        issues.push({ code: 'item_ref_outside_map', path, message: `node "${node.id}" references "${ref}", but only a node with for_each has an item and an index` });
      }
      if (parsed.root !== 'node') continue;
      // Reading an output needs a data edge; reading a state needs any edge, else it would race.
      const declared = parsed.field === 'output' ? dataPreds.has(parsed.nodeId) : anyPreds.has(parsed.nodeId);
      if (!declared) {
        const needed = parsed.field === 'output' ? 'data edge' : 'edge';
        const problem = seen.has(parsed.nodeId) ? `has no ${needed} ${parsed.nodeId} -> ${node.id}` : `the plan has no node "${parsed.nodeId}"`;
        issues.push({ code: 'undeclared_data_ref', path, message: `node "${node.id}" references "${ref}" but ${problem}` });
      }
    }
  });
  return issues;
}

/** Turns zod issues into plan issues with the `invalid_schema` code. */
export function schemaIssues(error: z.ZodError): PlanIssue[] {
  return fieldIssues(error).map((issue) => {
    const path = formatPath(issue.path);
    return { code: 'invalid_schema', path, message: `${path || 'payload'}: ${issue.message}` };
  });
}

/** Renders a path such as ["nodes", 2, "id"] as `nodes[2].id` (an empty key as `[""]`). */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : part === '' ? '[""]' : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
}

export type PlanParseResult = { ok: true; plan: PlanGraphPayload } | { ok: false; issues: PlanIssue[] };

export interface ParseOptions extends ValidateOptions {
  /**
   * The schema is parsed once (the workflow sandbox builds fresh schemas for every run): skip zod's
   * compiled fast path, whose compilation costs more than one parse saves.
   */
  once?: boolean;
}

/** Parses untrusted JSON into a plan graph and validates it: the one entry point for plan input. */
export function parsePlanGraph(input: unknown, options: ParseOptions = {}): PlanParseResult {
  const parsed = planGraphPayloadSchema.safeParse(input, options.once ? { jitless: true } : undefined);
  if (!parsed.success) return { ok: false, issues: schemaIssues(parsed.error) };
  const issues = validatePlanGraph(parsed.data, options);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, plan: parsed.data };
}
