/**
 * A plan graph as a Mermaid flowchart: each node shows its id and op, each arrow its edge kind;
 * data edges are solid, control edges dotted. A map node is a hexagon naming what it iterates
 * over; a sub-plan node is a subroutine box naming the plan it calls. Nodes and edges are emitted in sorted order so
 * the same plan always renders the same text.
 */
import { forEachRefText } from './map-node';
import type { PlanGraphPayload, PlanNode } from './records';
import { isSubPlanNode, subPlanTarget } from './sub-plan';

// Mermaid ids must be plain words; labels are quoted and escaped separately.
const mermaidId = (index: number) => `n${index}`;
const label = (text: string) => text.replace(/"/g, '#quot;');

/** One node's Mermaid shape and label. */
function nodeShape(id: string, node: PlanNode | undefined): string {
  const op = label(node?.op ?? '');
  if (node?.for_each !== undefined) return `{{"${label(id)}<br/>${op}<br/>for each ${label(forEachRefText(node.for_each) ?? node.for_each)}"}}`;
  if (node && isSubPlanNode(node)) return `[["${label(id)}<br/>plan ${label(subPlanTarget(node) ?? '?')}"]]`;
  return `["${label(id)}<br/>${op}"]`;
}

/** Renders a plan graph as Mermaid `flowchart TD` text. */
export function planToMermaid(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>): string {
  const ids = [...new Set(plan.nodes.map((n) => n.id))].sort();
  const idOf = new Map(ids.map((id, i) => [id, mermaidId(i)]));
  const nodeOf = new Map(plan.nodes.map((n) => [n.id, n]));
  const lines = ['flowchart TD'];
  for (const id of ids) lines.push(`  ${idOf.get(id)}${nodeShape(id, nodeOf.get(id))}`);
  const edges = [...plan.edges].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.kind.localeCompare(b.kind));
  for (const edge of edges) {
    const from = idOf.get(edge.from);
    const to = idOf.get(edge.to);
    if (!from || !to) continue; // stored plans are validated; a dangling edge has nothing to point at
    lines.push(edge.kind === 'data' ? `  ${from} -->|data| ${to}` : `  ${from} -.->|control| ${to}`);
  }
  return `${lines.join('\n')}\n`;
}
