import type { PlanGraphPayload } from './records';

/** The text a plan is embedded by: its intent, else its ops joined by spaces (SPEC §2). */
export function planText(plan: Pick<PlanGraphPayload, 'intent' | 'nodes'>): string {
  const intent = plan.intent.trim();
  return intent && intent !== 'unknown' ? intent : plan.nodes.map((n) => n.op).join(' ');
}
