/**
 * zod's issues, one per field: an unknown key is named where it is (`nodes[0].param`), not at
 * the object that holds it, so every 4xx points at the exact field to fix.
 */
import type { z } from 'zod';

export interface FieldIssue {
  path: PropertyKey[];
  message: string;
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...issue.path, key], message: 'is not a known field' }))
      : [{ path: issue.path, message: issue.message }],
  );
}
