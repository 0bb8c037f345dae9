/**
 * The `inputs_schema` of a learned plan: one property per input, typed from the values observed
 * for it and carrying them as `examples`; an input the tasks never name also carries a
 * `default`, which a run's start fills in when the caller leaves the input out (run-inputs.ts).
 * Every input is required except those only some twins passed (an optional arg, left out when
 * the caller leaves the input out).
 */

/** Most observed values an input keeps as examples. */
export const MAX_INPUT_EXAMPLES = 5;

/** The JSON Schema types a learned input is given, when all its values share one. */
const JSON_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** A value's JSON Schema type (null has none a learned input could take). */
function typeOf(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}

interface InputProperty {
  type?: JsonType;
  examples: unknown[];
  pattern?: string;
  default?: unknown;
}

/** The JSON Schema a learned plan's inputs are written as. */
export interface LearnedInputsSchema extends Record<string, unknown> {
  type: 'object';
  properties: Record<string, InputProperty>;
  required: string[];
  additionalProperties: false;
}

const INPUT_REF = /^\{\{\s*inputs\.([^{}.\s]+)\s*\}\}$/;

/** The input a param names when it is exactly `{{inputs.<name>}}`. */
export function inputRefName(value: unknown): string | undefined {
  return typeof value === 'string' ? INPUT_REF.exec(value)?.[1] : undefined;
}

export const inputRef = (name: string) => `{{inputs.${name}}}`;

function jsonType(values: readonly unknown[]): JsonType | undefined {
  const types = new Set(values.map(typeOf));
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  const [only] = types;
  return types.size === 1 ? JSON_TYPES.find((type) => type === only) : undefined;
}

/** An input name from an arg key: word characters only, not starting with a digit. */
function baseName(hint: string): string {
  const cleaned = hint.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  if (!cleaned) return 'input';
  return /^\d/.test(cleaned) ? `input_${cleaned}` : cleaned;
}

/** A plan's inputs being built: names made unique, examples collected. */
export class InputSet {
  private readonly properties = new Map<string, unknown[]>();
  private readonly defaults = new Map<string, unknown>();
  private readonly optional = new Set<string>();
  private readonly patterns = new Map<string, string>();

  /** The inputs already declared by a learned plan's schema (anything else reads as none). */
  static from(schema: Record<string, unknown>): InputSet {
    const set = new InputSet();
    const properties = schema.properties;
    if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const [name, property] of Object.entries(properties as Record<string, { examples?: unknown; default?: unknown; pattern?: unknown }>)) {
        set.properties.set(name, Array.isArray(property?.examples) ? [...(property.examples as unknown[])] : []);
        if (property?.default !== undefined) set.defaults.set(name, property.default);
        if (typeof property?.pattern === 'string') set.patterns.set(name, property.pattern);
      }
      const required = schema.required;
      if (Array.isArray(required)) for (const name of set.properties.keys()) if (!required.includes(name)) set.optional.add(name);
    }
    return set;
  }

  get size(): number {
    return this.properties.size;
  }

  has(name: string): boolean {
    return this.properties.has(name);
  }

  names(): string[] {
    return [...this.properties.keys()];
  }

  hasDefault(name: string): boolean {
    return this.defaults.has(name);
  }

  isOptional(name: string): boolean {
    return this.optional.has(name);
  }

  examples(name: string): readonly unknown[] {
    return this.properties.get(name) ?? [];
  }

  /** Declares a new input named after `hint` (suffixed _2, _3… when taken); returns its name. */
  add(hint: string, values: readonly unknown[]): string {
    const base = baseName(hint);
    let name = base;
    for (let n = 2; this.properties.has(name); n++) name = `${base}_${n}`;
    this.properties.set(name, []);
    this.addExamples(name, values);
    return name;
  }

  /**
   * A value as an example of an input: digits a twin wrote inside a text ("runs 6 pods") are the
   * number where the input holds numbers, so its type stays `integer` and a run gets a number.
   */
  asExample(name: string, value: unknown): unknown {
    const examples = this.properties.get(name) ?? [];
    const numeric = examples.length > 0 && examples.every((e) => typeof e === 'number');
    return numeric && typeof value === 'string' && NUMERIC.test(value) ? Number(value) : value;
  }

  /** Adds observed values to an input's examples (distinct, at most MAX_INPUT_EXAMPLES). */
  addExamples(name: string, observed: readonly unknown[]): void {
    const examples = this.properties.get(name);
    if (!examples) return;
    for (const value of observed.map((v) => this.asExample(name, v))) {
      if (examples.length >= MAX_INPUT_EXAMPLES) break;
      if (!examples.some((e) => JSON.stringify(e) === JSON.stringify(value))) examples.push(value);
    }
  }

  /** The value a run takes when its caller leaves the input out. */
  setDefault(name: string, value: unknown): void {
    if (this.properties.has(name)) this.defaults.set(name, value);
  }

  /** What text the input takes, as a JSON Schema `pattern`. */
  setPattern(name: string, pattern: string): void {
    if (this.properties.has(name)) this.patterns.set(name, pattern);
  }

  /** Makes an input one the caller may leave out (no longer `required`). */
  setOptional(name: string): void {
    if (this.properties.has(name)) this.optional.add(name);
  }

  /**
   * Required inputs that took the same values in every twin (two or more, no default): the one
   * kept of each such group, and each other one, which stands for the same value. A count passed
   * as a number (`replicas: 6`) and written inside a text ("runs 6 pods") is one value; the
   * number is kept, so a param taking the input whole still gets a number.
   */
  sameValued(): Array<[keep: string, same: string]> {
    const groups = new Map<string, string[]>();
    for (const [name, examples] of this.properties) {
      if (examples.length < 2 || this.defaults.has(name) || this.optional.has(name)) continue;
      const key = JSON.stringify(examples.map(sameValueKey).sort());
      groups.set(key, [...(groups.get(key) ?? []), name]);
    }
    return [...groups.values()].flatMap((names) => {
      const keep = names.find((name) => typeof this.properties.get(name)![0] === 'number') ?? names[0]!;
      return names.filter((name) => name !== keep).map((same): [string, string] => [keep, same]);
    });
  }

  remove(name: string): void {
    this.properties.delete(name);
    this.defaults.delete(name);
    this.optional.delete(name);
    this.patterns.delete(name);
  }

  /** The schema, or `{}` when the plan takes no input. */
  toSchema(): LearnedInputsSchema | Record<string, never> {
    if (this.properties.size === 0) return {};
    const names = [...this.properties.keys()].sort();
    const properties: Record<string, InputProperty> = {};
    for (const name of names) {
      const examples = this.properties.get(name)!;
      const type = jsonType(examples);
      const fallback = this.defaults.has(name) ? { default: this.defaults.get(name) } : {};
      const pattern = this.patterns.has(name) ? { pattern: this.patterns.get(name) } : {};
      properties[name] = { ...(type ? { type } : {}), examples, ...pattern, ...fallback };
    }
    // A name the plan does not take is a caller's slip ("totl" for "total"), refused rather than ignored.
    return { type: 'object', properties, required: names.filter((name) => !this.optional.has(name)), additionalProperties: false };
  }
}

/** A number as a text writes it, and as JSON does (`6`, `-2`, `0.5`; not `007` or `1e3`). */
const NUMERIC = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
/** A value as twins' inputs are compared: digits in a text are the number they write. */
const sameValueKey = (value: unknown) => JSON.stringify(typeof value === 'string' && NUMERIC.test(value) ? Number(value) : value);

/**
 * What an input standing for part of a text is named after, and the text it takes: the key of a
 * `key=value` pair it is the value of (`?city=London` → `city`, `week = '2025-W18'` → `week`), the collection of a URL path it
 * is the member of (`/repos/acme/api/issues` → `repo`, `/tickets/T-9` → `ticket`), the mailbox
 * of an e-mail address (`billing@…` in `to` → `to_mailbox`, never holding an `@` of its own, so
 * a whole address sent for it is refused rather than run as `a@b@…`), else the param's name.
 */
export function middleHint(before: string, after: string, key: string): { hint: string; pattern?: string } {
  const pair = /([A-Za-z_][\w-]*)\s*=\s*['"]?$/.exec(before);
  if (pair) return { hint: pair[1]! };
  const inSql = sqlHint(before);
  if (inSql) return { hint: inSql };
  const collection = /[^/]\/([A-Za-z][A-Za-z_-]*[A-Za-z])\/$/.exec(before)?.[1];
  if (collection && collection.length > 3 && /s$/i.test(collection) && !/ss$/i.test(collection)) return { hint: singular(collection) };
  if (after.startsWith('@') && /(^|[\s:<,;])$/.test(before)) return { hint: `${key}_mailbox`, pattern: '^[^@\\s]+$' };
  return { hint: key };
}

/** Words that make a text before a value SQL. */
const SQL_TEXT = /\b(?:select|update|delete|insert|where|refresh|vacuum|truncate)\b/i;

/**
 * Where a value stands in SQL: the column it is compared with (`created_at >= '…'` →
 * `created_at_from`, `ended_at < '…'` → `ended_at_to`, `name ILIKE '%…'` → `name`), the rows
 * after LIMIT, the table or view after FROM, JOIN, UPDATE, INTO or VIEW; undefined elsewhere.
 */
function sqlHint(before: string): string | undefined {
  if (!SQL_TEXT.test(before)) return undefined;
  const compared = /([A-Za-z_][\w.]*)\s*(>=?|<=?|<>|!=|\bi?like\b|\bin\s*\()\s*['"(%]*$/i.exec(before);
  if (compared) {
    const column = compared[1]!.split('.').at(-1)!;
    const op = compared[2]!.toLowerCase();
    return op.startsWith('>') ? `${column}_from` : op === '<' || op === '<=' ? `${column}_to` : column;
  }
  const word = /\b(limit|top|offset|from|join|update|into|table|view(?:\s+concurrently)?)\s+["'`]?$/i.exec(before)?.[1]?.toLowerCase();
  if (!word) return undefined;
  return word === 'top' ? 'limit' : word === 'limit' || word === 'offset' ? word : word.startsWith('view') ? 'view' : 'table';
}

/** A collection's member: `repos` → `repo`, `policies` → `policy`, `branches` → `branch`. */
const singular = (plural: string) => plural.replace(/ies$/i, 'y').replace(/(ch|sh|x|ss)es$/i, '$1').replace(/s$/i, '');

/**
 * Arg keys that say only that a value is there, or that it is part of a longer text (`q`, `key`,
 * `body`, `cmd`, `url`): an input is better named by the task's word for its value, or its class.
 */
const GENERIC_KEYS = new Set('q query key value val text data input s term search body content message msg payload arg args param cmd command script sql url uri path'.split(' '));
export const isGenericKey = (key: string) => GENERIC_KEYS.has(key.toLowerCase());

/** The last object key of a path: what an input taken from there is named after. */
export function keyHint(path: ReadonlyArray<string | number>): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const segment = path[i];
    if (typeof segment === 'string') return segment;
  }
  return 'input';
}
