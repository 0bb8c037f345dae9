import type { PlanGraphPayload } from './records';

/**
 * The text a plan is searched and embedded by: its intent (else its ops joined by spaces), then
 * its description and the task phrasings in `examples`, one per line.
 */
export function planText(plan: Pick<PlanGraphPayload, 'intent' | 'nodes' | 'description' | 'examples'>): string {
  const intent = plan.intent.trim();
  const head = intent && intent !== 'unknown' ? intent : plan.nodes.map((n) => n.op).join(' ');
  return [head, plan.description?.trim(), ...(plan.examples ?? []).map((e) => e.trim())].filter(Boolean).join('\n');
}
