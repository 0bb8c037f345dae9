/**
 * JSON text with object keys sorted at every level: equal for equal values whatever their key
 * order (Postgres' jsonb reorders keys; callers send them in any order).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v,
  );
}
