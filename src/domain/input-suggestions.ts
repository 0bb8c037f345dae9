/**
 * Inputs an agent left out but named in its own words. A learned plan's inputs carry the values
 * its episodes used as `examples`; a word of the task shaped like them (`T-102` beside `T-100`,
 * a URL beside URLs) is offered back in a 422 `invalid_inputs`, never used unasked: a guess
 * must not run a plan.
 */

/** A value's shape: letters, digits and the punctuation between them (`T-102` → `A-9`). */
export function valueShape(value: string): string {
  return value.replace(/[A-Z]+/g, 'A').replace(/[a-z]+/g, 'a').replace(/[0-9]+/g, '9');
}

/** Shapes as plain as a word (`main`, `Acme`) would match half the task: not suggested. */
function distinctive(shape: string): boolean {
  return !/^(A|a|Aa|9)$/.test(shape);
}

const EDGE_PUNCTUATION = /^["'`(<[{]+|["'`)>\]},.;:!?]+$/g;

interface InputProperty {
  type?: unknown;
  examples?: unknown;
}

/**
 * For each required string input missing from `given` whose examples have distinctive shapes,
 * the one word of `task` of such a shape; an input with none or several, or a word two inputs
 * would share, gets no suggestion.
 */
export function suggestInputs(schema: Record<string, unknown>, task: string, given: Record<string, unknown>): Record<string, string> {
  const properties = (schema.properties ?? {}) as Record<string, InputProperty>;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  const words = [...new Set(task.split(/\s+/).map((w) => w.replace(EDGE_PUNCTUATION, '')).filter(Boolean))];
  const found = new Map<string, string>();
  for (const name of required) {
    const property = properties[name];
    if (name in given || !property || (property.type !== undefined && property.type !== 'string') || !Array.isArray(property.examples)) continue;
    const shapes = new Set(property.examples.filter((e): e is string => typeof e === 'string').map(valueShape));
    if (shapes.size === 0 || ![...shapes].every(distinctive)) continue;
    const matches = words.filter((w) => shapes.has(valueShape(w)));
    if (matches.length === 1) found.set(name, matches[0]!);
  }
  const claimed = [...found.values()];
  return Object.fromEntries([...found].filter(([, word]) => claimed.indexOf(word) === claimed.lastIndexOf(word)));
}
