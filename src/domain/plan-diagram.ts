/**
 * A plan graph as a Mermaid flowchart: each node shows its id and op, each arrow its edge kind;
 * data edges are solid, control edges dotted. A map node is a hexagon naming what it iterates
 * over; a sub-plan node is a subroutine box naming the plan it calls. Approval nodes are hexagons
 * showing their prompt (class `approval`), and a plan with `requires_approval` gets a gate hexagon
 * before its first nodes. Nodes and edges are emitted in sorted order so the same plan always
 * renders the same text.
 */
import { APPROVAL_OP, RUN_GATE_ID, runGate } from './approvals';
import { approvalParams } from './approval-schemas';
import { forEachRefText } from './map-node';
import type { PlanGraphPayload, PlanNode } from './records';
import { isSubPlanNode, subPlanTarget } from './sub-plan';

// Mermaid ids must be plain words; labels are quoted and escaped separately.
const mermaidId = (index: number) => `n${index}`;
const label = (text: string) => text.replace(/"/g, '#quot;');

/** One node's Mermaid shape and label. */
function nodeShape(id: string, node: PlanNode | undefined): string {
  const op = label(node?.op ?? '');
  if (node?.op === APPROVAL_OP) return `{{"${label(id)}<br/>approval: ${label(approvalParams(node).prompt)}"}}`;
  if (node?.for_each !== undefined) return `{{"${label(id)}<br/>${op}<br/>for each ${label(forEachRefText(node.for_each) ?? node.for_each)}"}}`;
  if (node && isSubPlanNode(node)) return `[["${label(id)}<br/>plan ${label(subPlanTarget(node) ?? '?')}"]]`;
  return `["${label(id)}<br/>${op}"]`;
}

/** Renders a plan graph as Mermaid `flowchart TD` text. */
export function planToMermaid(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'> & Partial<Pick<PlanGraphPayload, 'constraints' | 'intent'>>): string {
  const ids = [...new Set(plan.nodes.map((n) => n.id))].sort();
  const idOf = new Map(ids.map((id, i) => [id, mermaidId(i)]));
  const nodeOf = new Map<string, PlanNode>(plan.nodes.map((n) => [n.id, n]));
  const lines = ['flowchart TD'];
  const approvals: string[] = [];
  for (const id of ids) {
    const node = nodeOf.get(id);
    if (node?.op === APPROVAL_OP) approvals.push(idOf.get(id)!);
    lines.push(`  ${idOf.get(id)}${nodeShape(id, node)}`);
  }
  const gate = plan.constraints && plan.intent !== undefined ? runGate({ constraints: plan.constraints, intent: plan.intent }) : undefined;
  if (gate) {
    // The gate holds back every node without predecessors: dotted arrows from it to each.
    approvals.push('gate');
    lines.push(`  gate{{"${label(RUN_GATE_ID)}<br/>approval: ${label(gate.prompt)}"}}`);
    const targets = new Set(plan.edges.map((e) => e.to));
    for (const id of ids) if (!targets.has(id)) lines.push(`  gate -.->|approved| ${idOf.get(id)}`);
  }
  const edges = [...plan.edges].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.kind.localeCompare(b.kind));
  for (const edge of edges) {
    const from = idOf.get(edge.from);
    const to = idOf.get(edge.to);
    if (!from || !to) continue; // stored plans are validated; a dangling edge has nothing to point at
    lines.push(edge.kind === 'data' ? `  ${from} -->|data| ${to}` : `  ${from} -.->|control| ${to}`);
  }
  if (approvals.length > 0) {
    lines.push('  classDef approval fill:#fff4d6,stroke:#b7791f,stroke-width:2px');
    lines.push(`  class ${approvals.join(',')} approval`);
  }
  return `${lines.join('\n')}\n`;
}
