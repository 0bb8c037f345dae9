/**
 * A plan's `inputs_schema` compiled as JSON Schema (Ajv): the one check that it compiles, made
 * when a plan is written and again before a run starts, and the validator run inputs are checked
 * with. Node code only: Ajv compiles schemas to code, so workflows never import this module and
 * graph.ts takes the check as an option.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DomainError } from './errors';
import { formatPath, type PlanIssue } from './graph';

const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
// `format` is checked (email, uri, date-time, uuid…): an author who writes one means it. A format
// Ajv does not know stays ignored, as JSON Schema allows, so no stored plan stops compiling.
addFormats(ajv);
type Compiled = { validate: ValidateFunction } | { issues: PlanIssue[] };
/** Compile results by schema text; bounded, since plans (and so schemas) are unbounded. */
const compiled = new Map<string, Compiled>();
const MAX_COMPILED = 256;

/** A JSON pointer ("/properties/n/type") as path segments. */
function pointerSegments(pointer: string): Array<string | number> {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

const issueAt = (segments: Array<string | number>, reason: string): PlanIssue => {
  const path = formatPath(['inputs_schema', ...segments]);
  return { code: 'invalid_schema', path, message: `${path}: ${reason}` };
};

/** Ajv's meta-schema errors, one issue per keyword they name (a bad `type` fails three rules). */
function metaSchemaIssues(errors: ErrorObject[]): PlanIssue[] {
  const reasons = new Map<string, string[]>();
  for (const e of errors) reasons.set(e.instancePath, [...(reasons.get(e.instancePath) ?? []), e.message ?? 'is invalid']);
  return [...reasons].map(([pointer, messages]) => issueAt(pointerSegments(pointer), `not a valid JSON Schema: ${messages.join('; ')}`));
}

function compile(schema: Record<string, unknown>): Compiled {
  try {
    if (!ajv.validateSchema(schema)) return { issues: metaSchemaIssues(ajv.errors ?? []) };
    // Past the meta-schema, Ajv still refuses a bad regex or an unresolvable $ref; it names no keyword.
    return { validate: ajv.compile(schema) };
  } catch (err) {
    return { issues: [issueAt([], `not a valid JSON Schema: ${err instanceof Error ? err.message : String(err)}`)] };
  } finally {
    // The map above is the cache: left registered, a schema's `$id` would refuse the next schema
    // (another plan's, or this one once evicted) with that id, and Ajv's own cache would grow forever.
    ajv.removeSchema(schema);
  }
}

function compiledFor(schema: Record<string, unknown>): Compiled {
  const key = JSON.stringify(schema);
  let result = compiled.get(key);
  if (result) {
    // Re-inserting keeps the map in least-recently-used order.
    compiled.delete(key);
  } else {
    result = compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  }
  compiled.set(key, result);
  return result;
}

/** Why a plan's `inputs_schema` cannot check run inputs (`invalid_schema` issues); none when it compiles. */
export function inputsSchemaIssues(schema: Record<string, unknown>): PlanIssue[] {
  if (Object.keys(schema).length === 0) return [];
  const result = compiledFor(schema);
  return 'issues' in result ? result.issues : [];
}

/**
 * The validator of a plan's `inputs_schema`. A schema that does not compile is the plan's fault,
 * refused as 422 `invalid_plan` naming it, never as Ajv's own error (a 500).
 */
export function inputsValidator(schema: Record<string, unknown>): ValidateFunction {
  const result = compiledFor(schema);
  if ('validate' in result) return result.validate;
  throw new DomainError('invalid_plan', `invalid plan graph: ${result.issues.map((i) => i.message).join('; ')}`, { issues: result.issues });
}
