/**
 * Run inputs checked against a plan's `inputs_schema` (JSON Schema), before a run starts and
 * again by the worker before its first node.
 */
import { DomainError } from '../domain/errors';
import { formatPath } from '../domain/graph';
import { inputsValidator } from '../domain/inputs-schema';
import { jsonProblem } from '../domain/json-limits';

/**
 * Validates run inputs against a plan's JSON Schema; returns one line per problem. A schema that
 * does not compile throws 422 `invalid_plan` (inputs-schema.ts).
 */
export function inputProblems(schema: Record<string, unknown>, inputs: unknown): string[] {
  if (Object.keys(schema).length === 0) return [];
  const validate = inputsValidator(schema);
  if (validate(inputs)) return [];
  return (validate.errors ?? []).map((e) => {
    const at = `inputs${e.instancePath.replace(/\//g, '.')}`;
    // Name the stray input and what the plan takes: "totl" is a slip for "total".
    if (e.keyword === 'additionalProperties') {
      const stray = `${at}.${String(e.params.additionalProperty)}`;
      return e.instancePath === '' ? `${stray}: not an input of this plan${takes(schema)}` : `${stray}: not a property the inputs_schema allows here`;
    }
    return `${at}: ${e.message ?? 'invalid'}`;
  });
}

/** "(it takes a, b)" for a schema with properties, else nothing. */
function takes(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  const names = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return names.length > 0 ? ` (it takes ${names.join(', ')})` : '';
}

/**
 * The inputs a run starts with: the caller's, and the `default` of each top-level input the
 * caller left out (as Ajv's useDefaults reads a schema: a required input with a default is filled,
 * not refused). Learned plans give one to the inputs their tasks never name (consolidation).
 */
export function withInputDefaults(schema: Record<string, unknown>, inputs: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object' || Array.isArray(properties)) return inputs;
  const filled = Object.entries(properties as Record<string, { default?: unknown } | null>).filter(
    ([name, property]) => property?.default !== undefined && !Object.hasOwn(inputs, name),
  );
  return filled.length === 0 ? inputs : { ...inputs, ...Object.fromEntries(filled.map(([name, property]) => [name, structuredClone(property!.default)])) };
}

/** The required inputs `inputs` leaves out that have no default to fill them. */
export function missingInputs(schema: Record<string, unknown>, inputs: Record<string, unknown>): string[] {
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const filled = withInputDefaults(schema, inputs);
  return required.filter((name) => !Object.hasOwn(filled, name));
}

/**
 * Refuses, naming the field, run inputs that anything downstream could not carry (too deep,
 * unstorable text or numbers, prototype keys, over `limitBytes`) or that the plan's schema refuses.
 */
export function assertRunInputs(schema: Record<string, unknown>, inputs: Record<string, unknown>, limitBytes: number): void {
  const problem = jsonProblem(inputs);
  if (problem) {
    const where = formatPath(['inputs', ...problem.path]);
    throw new DomainError('invalid_inputs', `run inputs: ${where}: ${problem.message}`, { field: 'inputs', path: formatPath(problem.path) });
  }
  const size = Buffer.byteLength(JSON.stringify(inputs));
  if (size > limitBytes) {
    throw new DomainError('payload_too_large', `run inputs are ${size} bytes; the limit is ${limitBytes} (RUN_INPUT_LIMIT_BYTES)`, {
      field: 'inputs',
      size_bytes: size,
      limit_bytes: limitBytes,
    });
  }
  const problems = inputProblems(schema, inputs);
  // Each problem in the message too: a caller reading only the message must learn what to fix.
  if (problems.length > 0) throw new DomainError('invalid_inputs', `run inputs do not match the plan's inputs_schema: ${problems.join('; ')}`, { problems });
}
