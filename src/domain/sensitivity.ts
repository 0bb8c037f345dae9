/**
 * The sensitivity scale of memory records (docs/concepts.md#trust-contexts-and-visibility). Free
 * of zod, so trust checks can run in workflow code without building the wire schemas.
 */
export const SENSITIVITIES = ['public', 'low', 'medium', 'high', 'hyper'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];

/** Rank of a sensitivity level: public = 0 … hyper = 4. */
export function sensitivityRank(level: Sensitivity): number {
  return SENSITIVITIES.indexOf(level);
}

/** Whether a value is a level of the scale: a stored row could hold anything a manual fix wrote. */
export function isSensitivity(value: unknown): value is Sensitivity {
  return (SENSITIVITIES as readonly unknown[]).includes(value);
}
