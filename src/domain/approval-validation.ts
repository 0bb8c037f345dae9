/**
 * Validation of approval nodes and the run gate (docs/plan-schema.md#approvals): bad params are
 * `invalid_approval`, a node that takes the gate's reserved id is `reserved_node_id`.
 */
import { APPROVAL_OP, RUN_GATE_ID } from './approvals';
import { approvalParamProblems } from './approval-schemas';
import { durationMs } from './node-execution';
import type { PlanIssue } from './graph';
import type { PlanGraphPayload } from './records';
import { collectTemplateRefs, parseRef } from './refs';

/** Every approval problem of a plan. */
export function approvalIssues(plan: Pick<PlanGraphPayload, 'nodes' | 'constraints'>): PlanIssue[] {
  const issues: PlanIssue[] = [];
  plan.nodes.forEach((node, i) => {
    if (node.op === APPROVAL_OP) {
      for (const p of approvalParamProblems(node)) {
        issues.push({ code: 'invalid_approval', path: `nodes[${i}].params.${p.field}`, message: `approval node "${node.id}": params.${p.field}: ${p.message}` });
      }
    }
  });
  const c = plan.constraints as Record<string, unknown>;
  if (c.requires_approval !== undefined && typeof c.requires_approval !== 'boolean') {
    issues.push({ code: 'invalid_approval', path: 'constraints.requires_approval', message: 'constraints.requires_approval must be true or false' });
  }
  if (c.approval_prompt !== undefined && (typeof c.approval_prompt !== 'string' || c.approval_prompt === '')) {
    issues.push({ code: 'invalid_approval', path: 'constraints.approval_prompt', message: 'constraints.approval_prompt must be a non-empty string' });
  }
  // The gate is asked before any node runs: its prompt can show run inputs, nothing else.
  for (const { ref } of typeof c.approval_prompt === 'string' ? collectTemplateRefs(c.approval_prompt) : []) {
    if (parseRef(ref, [])?.root !== 'inputs') {
      issues.push({
        code: 'invalid_approval',
        path: 'constraints.approval_prompt',
        message: `constraints.approval_prompt: {{${ref}}} is not a run input; the gate is asked before any node runs, so its prompt may reference only {{inputs…}}`,
      });
    }
  }
  const timeout = c.approval_timeout;
  if (timeout !== undefined && !((typeof timeout === 'string' || typeof timeout === 'number') && durationMs(timeout) > 0)) {
    issues.push({ code: 'invalid_approval', path: 'constraints.approval_timeout', message: 'constraints.approval_timeout must be a duration such as "30s", "5m", "2h" or a number of ms' });
  }
  if (c.requires_approval === true) {
    plan.nodes.forEach((node, i) => {
      if (node.id === RUN_GATE_ID) {
        issues.push({ code: 'reserved_node_id', path: `nodes[${i}].id`, message: `node id "${RUN_GATE_ID}" is reserved for the run's approval gate (constraints.requires_approval)` });
      }
    });
  }
  return issues;
}
