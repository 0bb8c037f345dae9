import { describe, expect, it } from 'vitest';
import { InputSet } from '../../src/consolidation/input-schema';
import { DomainError } from '../../src/domain/errors';
import { parsePlanGraph } from '../../src/domain/graph';
import { inputsSchemaIssues, inputsValidator } from '../../src/domain/inputs-schema';
import { inputProblems } from '../../src/runs/run-inputs';

describe('inputsSchemaIssues', () => {
  it('names the keyword the meta-schema refuses, with Ajv reason', () => {
    expect(inputsSchemaIssues({ type: 'objekt' })).toEqual([
      { code: 'invalid_schema', path: 'inputs_schema.type', message: expect.stringMatching(/^inputs_schema\.type: not a valid JSON Schema: must be equal to one of the allowed values/) },
    ]);
    expect(inputsSchemaIssues({ required: 'name' })).toEqual([expect.objectContaining({ path: 'inputs_schema.required', message: expect.stringContaining('must be array') })]);
    expect(inputsSchemaIssues({ minLength: -1 })).toEqual([expect.objectContaining({ path: 'inputs_schema.minLength', message: expect.stringContaining('must be >= 0') })]);
    expect(inputsSchemaIssues({ properties: { n: { type: 'strin' }, m: { required: [1] } } }).map((i) => i.path)).toEqual([
      'inputs_schema.properties.n.type',
      'inputs_schema.properties.m.required[0]',
    ]);
  });

  it('refuses what compiles past the meta-schema only to fail (a bad regex, an unresolvable $ref) at inputs_schema', () => {
    expect(inputsSchemaIssues({ properties: { n: { type: 'string', pattern: '(' } } })).toEqual([
      { code: 'invalid_schema', path: 'inputs_schema', message: expect.stringContaining('Invalid regular expression') },
    ]);
    expect(inputsSchemaIssues({ properties: { n: { $ref: '#/nope' } } })).toEqual([expect.objectContaining({ path: 'inputs_schema', message: expect.stringContaining("can't resolve reference #/nope") })]);
    expect(inputsSchemaIssues({ $ref: 'https://example.com/remote.json' })).toHaveLength(1);
    expect(inputsSchemaIssues({ $schema: 'https://example.com/unknown-meta' })).toHaveLength(1);
  });

  it('accepts valid schemas, the empty one, recursion, and the same $id in two different schemas', () => {
    expect(inputsSchemaIssues({})).toEqual([]);
    expect(inputsSchemaIssues({ type: 'object', properties: { n: { type: 'string', pattern: '^a+$' } }, required: ['n'] })).toEqual([]);
    const tree = { type: 'object', properties: { child: { $ref: '#' } } };
    expect(inputsSchemaIssues(tree)).toEqual([]);
    expect(inputProblems(tree, { child: { child: 1 } })).toEqual(['inputs.child.child: must be object']);
    // Another plan's schema, or this one recompiled, must not collide with an id compiled before.
    expect(inputsSchemaIssues({ $id: 'https://example.com/in', type: 'string' })).toEqual([]);
    expect(inputsSchemaIssues({ $id: 'https://example.com/in', type: 'number' })).toEqual([]);
    expect(inputProblems({ $id: 'https://example.com/in', type: 'number' }, 'x')).toEqual(['inputs: must be number']);
  });

  it('names an input the plan does not take, and the ones it does', () => {
    const learned = { type: 'object', properties: { total: { type: 'integer' }, region: { type: 'string' } }, required: ['region'], additionalProperties: false };
    expect(inputProblems(learned, { region: 'EMEA', totl: 77000 })).toEqual(['inputs.totl: not an input of this plan (it takes total, region)']);
    expect(inputProblems(learned, { region: 'EMEA', total: 77000 })).toEqual([]);
    const nested = { type: 'object', properties: { where: { type: 'object', properties: { region: { type: 'string' } }, additionalProperties: false } } };
    expect(inputProblems(nested, { where: { regoin: 'EMEA' } })).toEqual(['inputs.where.regoin: not a property the inputs_schema allows here']);
  });

  it('checks the formats JSON Schema names and ignores one it does not', () => {
    const schema = { type: 'object', properties: { e: { format: 'email' }, u: { format: 'uri' }, d: { format: 'date-time' }, x: { format: 'no-such-format' } } };
    expect(inputsSchemaIssues(schema)).toEqual([]);
    expect(inputProblems(schema, { e: 'nobody', u: 'not a uri', d: '2020-01-01', x: 'anything' })).toEqual([
      'inputs.e: must match format "email"',
      'inputs.u: must match format "uri"',
      'inputs.d: must match format "date-time"',
    ]);
    expect(inputProblems(schema, { e: 'a@b.example', u: 'https://example.com/x', d: '2020-01-01T10:00:00Z', x: 'anything' })).toEqual([]);
  });

  it('validating inputs against a schema that does not compile is invalid_plan naming it, never Ajv error', () => {
    let thrown: unknown;
    try {
      inputsValidator({ type: 'objekt' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ code: 'invalid_plan', details: { issues: [expect.objectContaining({ code: 'invalid_schema', path: 'inputs_schema.type' })] } });
    expect(() => inputProblems({ properties: { n: { $ref: '#/nope' } } }, {})).toThrow(/inputs_schema: not a valid JSON Schema/);
  });

  it('joins the other plan issues when a writer or starter passes it to plan validation', () => {
    const plan = { kind: 'plan_graph', plan_id: 'p', intent: 'i', inputs_schema: { required: 'name' }, nodes: [{ id: 'a', op: 'noop' }], edges: [{ from: 'a', to: 'a', kind: 'control' }] };
    expect(parsePlanGraph(plan)).toEqual({ ok: false, issues: [expect.objectContaining({ code: 'self_edge' })] });
    const checked = parsePlanGraph(plan, { inputsSchemaIssues });
    expect(checked.ok ? [] : checked.issues.map((i) => `${i.code} ${i.path}`)).toEqual(['self_edge edges[0]', 'invalid_schema inputs_schema.required']);
  });

  it('every inputs_schema consolidation learns compiles', () => {
    const inputs = new InputSet();
    for (const [hint, values] of [
      ['url', ['https://a', 'https://b']],
      ['url', [1, 2.5]],
      ['0 depth', [true, false]],
      ['constructor', [{ nested: [null] }, 'mixed', 3]],
      ['$ref', ['#/nope']],
      ['', []],
    ] as const) {
      inputs.add(hint, values);
    }
    const schema = inputs.toSchema();
    expect(Object.keys(schema.properties ?? {})).toHaveLength(6);
    expect(inputsSchemaIssues(schema)).toEqual([]);
  });

  it('types an input whose values were objects or arrays, so a string is refused before the op sees it', () => {
    const inputs = new InputSet();
    inputs.add('filter', [{ status: 'open' }, { status: 'closed', tag: 'vip' }]);
    inputs.add('ids', [[1, 2], [3]]);
    inputs.add('either', [{ a: 1 }, [1]]);
    const schema = inputs.toSchema();
    expect(schema.properties).toMatchObject({ filter: { type: 'object' }, ids: { type: 'array' } });
    expect(schema.properties?.either).not.toHaveProperty('type');
    expect(inputProblems(schema, { filter: 'open', ids: [1], either: 1 })).toEqual([expect.stringContaining('filter')]);
  });
});
