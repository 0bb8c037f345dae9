/**
 * Run inputs checked against a plan's `inputs_schema` (JSON Schema), before a run starts and
 * again by the worker before its first node.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { DomainError } from '../domain/errors';
import { formatPath } from '../domain/graph';
import { jsonProblem } from '../domain/json-limits';

const ajv = new Ajv({ allErrors: true, strict: false });
/** Compiled validators by schema text; bounded, since plans (and so schemas) are unbounded. */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate) {
    // Re-inserting keeps the map in least-recently-used order.
    compiled.delete(key);
  } else {
    validate = ajv.compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  }
  compiled.set(key, validate);
  return validate;
}

/** Validates run inputs against a plan's JSON Schema; returns one line per problem. */
export function inputProblems(schema: Record<string, unknown>, inputs: unknown): string[] {
  if (Object.keys(schema).length === 0) return [];
  const validate = validatorFor(schema);
  if (validate(inputs)) return [];
  return (validate.errors ?? []).map((e) => `inputs${e.instancePath.replace(/\//g, '.')}: ${e.message ?? 'invalid'}`);
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
  if (problems.length > 0) throw new DomainError('invalid_inputs', `run inputs do not match the plan's inputs_schema`, { problems });
}
