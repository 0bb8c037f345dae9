/**
 * What a task says of a request's inputs: the values it names for inputs left out (offered as
 * suggestions), and where it disagrees with them, an input left to its default, or given a value,
 * while the task names another value for it. Read by input-suggestions.ts and keyed-values.ts; a
 * disagreeing intent is refused with the task's value suggested, since running would do what was
 * not asked.
 */
import { inputReader, readInputs, sameValue, scalarExamples, sigil, withoutValues, wordsOf, type InputProperty, type Words } from './input-suggestions';
import { keyedConflicts, keyedValues, quantityFor } from './keyed-values';
import type { FixedParam } from './value-kinds';

/**
 * For each required input missing from `given`, the one value `task` names for it: shaped like its
 * examples or standing where one stood in `phrasings` (the tasks the plan was learned from: its
 * description and examples), else named beside the input's own name ("with max surge 30"). An
 * input with none or several, or a value two inputs would share, gets no suggestion.
 */
export function suggestInputs(schema: Record<string, unknown>, task: string, given: Record<string, unknown>, phrasings: readonly string[] = []): Record<string, string | number> {
  const words = wordsOf(task);
  const read = readInputs(inputReader(schema, phrasings), words, given);
  const properties = (schema.properties ?? {}) as Record<string, InputProperty>;
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const unread = required.filter((name) => properties[name] && !(name in given) && !(name in read));
  if (unread.length === 0) return read;
  // The phrasings' words say nothing of a value, except the values they held (the examples).
  const examples = Object.values(properties).flatMap(scalarExamples);
  const own = new Set(
    [...phrasings.map((p) => withoutValues(wordsOf(p), examples).text), ...Object.keys(properties)]
      .flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u))
      .filter(Boolean),
  );
  const keyed = keyedValues(
    unread.map((name) => {
      const kinds = new Set(scalarExamples(properties[name]).flatMap((e) => (typeof e === 'string' ? [sigil(e)] : [])));
      return { name, type: properties[name]!.type, accepts: kinds.size > 0 ? (word: string) => kinds.has(sigil(word)) : undefined };
    }),
    words,
    { own, read: [...jsonScalars(given), ...Object.values(read)].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number') },
  );
  // A value two inputs would take is neither's.
  const claimed = [...Object.values(read), ...Object.values(keyed)].map(sameValue);
  const once = Object.entries(keyed).filter(([, value]) => claimed.indexOf(sameValue(value)) === claimed.lastIndexOf(sameValue(value)));
  return { ...read, ...Object.fromEntries(once) };
}

/**
 * Inputs the caller left to their default although the task names another value for them ("…
 * to eng-all@example.com" where `to` defaults to team@example.com): read as suggestions are, a
 * value the caller gave another input excepted. Running the default would do what was not asked.
 */
export function overriddenDefaults(
  schema: Record<string, unknown>,
  task: string,
  given: Record<string, unknown>,
  phrasings: readonly string[] = [],
): Array<{ name: string; named: string | number; default: unknown }> {
  const properties = (schema.properties ?? {}) as Record<string, InputProperty>;
  const words = wordsOf(task);
  // Values the caller gave (inside arrays and objects too) or a required input takes are not this input's.
  const taken = new Set([...jsonScalars(given), ...Object.values(readInputs(inputReader(schema, phrasings), words, {}))].map(sameValue));
  const named = { ...keyedDefaults(properties, words, given, phrasings, taken), ...readInputs(inputReader(schema, phrasings, 'defaulted'), words, given) };
  return Object.entries(named)
    .filter(([name, value]) => sameValue(value) !== sameValue(properties[name]!.default) && !taken.has(sameValue(value)))
    .map(([name, value]) => ({ name, named: value, default: properties[name]!.default }));
}

/**
 * Defaulted inputs named beside their own name ("with page size 200" for `page_size`, "a 20
 * minute timeout" for `timeout_s`), read as the value gate reads a fixed param (keyed-values.ts):
 * a knob no phrasing states has no neighbours to be read between.
 */
function keyedDefaults(
  properties: Record<string, InputProperty>,
  words: Words,
  given: Record<string, unknown>,
  phrasings: readonly string[],
  taken: ReadonlySet<string>,
): Record<string, string | number> {
  const defaulted: FixedParam[] = Object.entries(properties).flatMap(([name, property]) =>
    !(name in given) && (typeof property.default === 'string' || typeof property.default === 'number') ? [{ node: '', param: name, value: property.default }] : [],
  );
  if (defaulted.length === 0) return {};
  const own = new Set([...phrasings, ...Object.keys(properties)].flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter(Boolean));
  return Object.fromEntries(
    keyedConflicts(defaulted, words, { own, read: [...taken] }).flatMap(({ param, task, value }) => {
      const type = properties[param]!.type;
      const named = typeof value === 'number' || type === 'integer' || type === 'number' ? quantityFor(task, param) : task;
      return named === undefined ? [] : [[param, named]];
    }),
  );
}

/**
 * Inputs the caller gave one value while the task names another for them ("… post to
 * #billing-escalations" with `channel: "#support-escalations"`): read as suggestions are. A value
 * the caller gave any input is that input's, never a contradiction of another, and a task that
 * names the given value agrees with it.
 */
export function contradictedInputs(
  schema: Record<string, unknown>,
  task: string,
  given: Record<string, unknown>,
  phrasings: readonly string[] = [],
): Array<{ name: string; named: string | number; given: unknown }> {
  const properties = (schema.properties ?? {}) as Record<string, InputProperty>;
  const scalars = Object.keys(given).filter((name) => name in properties && (typeof given[name] === 'string' || typeof given[name] === 'number'));
  if (scalars.length === 0) return [];
  const words = wordsOf(task);
  // Read as a default is: an address counts only after a word an example followed ("requested by bob@…" is not the `to`).
  const posed = Object.fromEntries(scalars.map((name) => [name, { ...properties[name], default: given[name] }]));
  const named = readInputs(inputReader({ ...schema, properties: { ...properties, ...posed } }, phrasings, 'defaulted'), words, {});
  const givenValues = new Set(jsonScalars(given).map(sameValue));
  return Object.entries(named)
    // The task naming the value given ("… region EMEA for Q3" read whole) agrees with it.
    // Inputs left to their default are overriddenDefaults' to report.
    .filter(([name, value]) => name in posed && !givenValues.has(sameValue(value)) && withoutValues(words, [given[name] as string | number]).removed === 0)
    .map(([name, value]) => ({ name, named: value, given: given[name] }));
}

/** Every string and number inside a JSON value. */
function jsonScalars(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(jsonScalars);
  if (value && typeof value === 'object') return Object.values(value).flatMap(jsonScalars);
  return typeof value === 'string' || typeof value === 'number' ? [value] : [];
}
