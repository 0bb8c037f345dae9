/**
 * A plan's document: the searchable text of a plan, in four sections weighted from most to least
 * telling. The lexical index (the `document` tsvector, computed in SQL by plan_document_tsvector
 * in the plan_document migration) and the dense embedding are both built from these sections;
 * an integration test holds the two implementations to the same words.
 */
import type { PlanGraphPayload } from './records';

/** The sections, as Postgres tsvector weights A (most telling) to D. */
export interface PlanDocument {
  /** A: the intent (snake/camel case split). */
  name: string;
  /** B: description and examples without the values the plan's inputs take (inputValueWords), and tags. */
  about: string;
  /** C: op names, input and output names with their schema descriptions. */
  structure: string;
  /** D: param keys and literal string values, templates removed. */
  details: string;
}

const TEMPLATE = /\{\{[^{}]*\}\}/g;

/** Words of an identifier or text: templates removed, camelCase and snake_case split, punctuation dropped. */
export function documentWords(text: string): string {
  return text
    .replace(TEMPLATE, ' ')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Keys (at every depth) and string values of a JSON value, in document order. */
function keysAndStrings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) keysAndStrings(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      keysAndStrings(item, out);
    }
  }
  return out;
}

/** Property names of a JSON schema and every string `description` in it. */
function schemaWords(schema: Record<string, unknown>): string[] {
  const properties = schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
  const descriptions: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        if (key === 'description' && typeof item === 'string') descriptions.push(item);
        else visit(item);
      }
    }
  };
  visit(schema);
  return [...properties, ...descriptions];
}

const join = (parts: readonly string[]) => documentWords(parts.filter(Boolean).join(' '));

/** Most words of an input's example for its words to be values the plan's tasks vary; a longer one is prose (a note, a message). */
const MAX_VALUE_WORDS = 3;

/**
 * The words of the values a plan's inputs take (their examples of at most MAX_VALUE_WORDS words),
 * lowercased: in its tasks they say which customer or service that run was for, not what the
 * plan does, and left in they draw tasks about the same customer to another job.
 */
export function inputValueWords(inputsSchema: Record<string, unknown>): Set<string> {
  const properties = inputsSchema.properties && typeof inputsSchema.properties === 'object' ? Object.values(inputsSchema.properties) : [];
  const words = new Set<string>();
  for (const property of properties) {
    const examples = (property as { examples?: unknown }).examples;
    for (const value of Array.isArray(examples) ? examples : []) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const valueWords = documentWords(String(value)).toLowerCase().split(' ').filter(Boolean);
      if (valueWords.length <= MAX_VALUE_WORDS) for (const word of valueWords) words.add(word);
    }
  }
  return words;
}

/** A text's words without the given ones (compared lowercased). */
const without = (text: string, words: ReadonlySet<string>) =>
  documentWords(text)
    .split(' ')
    .filter((word) => word && !words.has(word.toLowerCase()))
    .join(' ');

/**
 * The document of a plan, given its record's tags. Learned aliases are not part of it: they are
 * matched as whole phrasings (alias-match.ts), so their incidental words do not draw other tasks.
 */
export function planDocument(
  plan: Pick<PlanGraphPayload, 'intent' | 'description' | 'examples' | 'nodes' | 'inputs_schema' | 'outputs_schema'>,
  extras: { tags?: readonly string[] } = {},
): PlanDocument {
  const values = inputValueWords(plan.inputs_schema);
  return {
    name: join([plan.intent]),
    about: join([without(join([plan.description ?? '', ...(plan.examples ?? [])]), values), ...(extras.tags ?? [])]),
    structure: join([...plan.nodes.map((n) => n.op), ...schemaWords(plan.inputs_schema), ...schemaWords(plan.outputs_schema)]),
    details: join(plan.nodes.flatMap((n) => keysAndStrings(n.params, []))),
  };
}

/**
 * The text the dense embedding is taken of: the name twice (it says most in fewest words), then
 * the other sections. Param details are left out: SQL, paths and flags move a sentence vector
 * more than they say what the plan is for.
 */
export function documentEmbeddingText(doc: PlanDocument): string {
  return [doc.name, doc.name, doc.about, doc.structure].filter(Boolean).join(' ');
}
