/**
 * The domain error model: one class with a closed set of stable codes; the HTTP layer maps each
 * code to a status (src/api/errors.ts) and the CLI prints its message.
 */
export const ERROR_CODES = [
  'bad_request',
  'invalid_plan',
  'invalid_inputs',
  'invalid_record',
  'not_a_plan',
  'not_an_episode',
  'plan_retracted',
  'unauthenticated',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'needs_more',
  'payload_too_large',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
