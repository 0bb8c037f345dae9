/**
 * Run inputs checked against a plan's `inputs_schema` (JSON Schema), before a run starts and
 * again by the worker before its first node.
 */
import { Ajv, type ValidateFunction } from 'ajv';

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
