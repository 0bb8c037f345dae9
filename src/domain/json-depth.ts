/**
 * A bound on how deeply untrusted JSON may nest. Recursive code (JSON.stringify, template
 * resolution, Postgres' jsonb parser) overflows its stack on a few thousand levels, which one
 * megabyte of `[[[[…` easily reaches; values are therefore measured here, without recursion,
 * before anything recursive sees them.
 */
/** Deepest container nesting accepted in stored or executed JSON. */
export const MAX_JSON_DEPTH = 64;

/** The path of the first container nested deeper than `max`, or undefined when within it. */
export function tooDeepPath(value: unknown, max = MAX_JSON_DEPTH): PropertyKey[] | undefined {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= max) return path;
    const entries = Array.isArray(current) ? current.map((v, i) => [i, v] as const) : Object.entries(current);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}
