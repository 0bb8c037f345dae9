/**
 * A plan graph as a Mermaid flowchart: each node shows its id and op, each arrow its edge kind;
 * data edges are solid, control edges dotted. Nodes and edges are emitted in sorted order so
 * the same plan always renders the same text.
 */
import type { PlanGraphPayload } from './records';

// Mermaid ids must be plain words; labels are quoted and escaped separately.
const mermaidId = (index: number) => `n${index}`;
const label = (text: string) => text.replace(/"/g, '#quot;');

/** Renders a plan graph as Mermaid `flowchart TD` text. */
export function planToMermaid(plan: Pick<PlanGraphPayload, 'nodes' | 'edges'>): string {
  const ids = [...new Set(plan.nodes.map((n) => n.id))].sort();
  const idOf = new Map(ids.map((id, i) => [id, mermaidId(i)]));
  const opOf = new Map(plan.nodes.map((n) => [n.id, n.op]));
  const lines = ['flowchart TD'];
  for (const id of ids) lines.push(`  ${idOf.get(id)}["${label(id)}<br/>${label(opOf.get(id) ?? '')}"]`);
  const edges = [...plan.edges].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.kind.localeCompare(b.kind));
  for (const edge of edges) {
    const from = idOf.get(edge.from);
    const to = idOf.get(edge.to);
    if (!from || !to) continue; // stored plans are validated; a dangling edge has nothing to point at
    lines.push(edge.kind === 'data' ? `  ${from} -->|data| ${to}` : `  ${from} -.->|control| ${to}`);
  }
  return `${lines.join('\n')}\n`;
}
