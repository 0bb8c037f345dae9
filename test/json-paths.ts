/** JSON path helpers shared by the fuzz tests. */
export type Json = unknown;
export type Path = Array<string | number>;

/** Every path into a JSON value (containers and leaves), root excluded. */
export function allPaths(value: Json): Path[] {
  const out: Path[] = [];
  const stack: Array<{ v: Json; p: Path }> = [{ v: value, p: [] }];
  while (stack.length > 0) {
    const { v, p } = stack.pop()!;
    if (p.length > 0) out.push(p);
    if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) stack.push({ v: child, p: [...p, Array.isArray(v) ? Number(k) : k] });
    }
  }
  return out;
}
