/**
 * A task worded as one of a plan's phrasings, with other values. Consolidation keeps the tasks a
 * plan's episodes were given as its `examples` and the values they named as its inputs' examples:
 * "look up how the go gc paces itself, summarise in 12 words" is the template "look up how the …
 * paces itself, summarise in … words". A task that fills the same template with its own values
 * (read off as input suggestions are) matches the plan as a learned alias does, word for word.
 */
import { aliasMatch, exactCoverage } from './alias-match';
import { contentWords } from './content-words';
import { inputReader, MAX_PHRASINGS, phrasingWords, readInputs, scalarExamples, withoutValues, type InputReader, type Words } from './input-suggestions';

/** Share of the task's words (its values aside) a template must hold: room for a word such as "now". */
const TASK_COVERAGE = 0.8;

export interface PhrasedPlan {
  description?: string;
  examples?: string[];
  inputs_schema: Record<string, unknown>;
}

/** A plan's phrasing templates, prepared once per plan revision: its inputs' reader and each template's words. */
export interface PhrasingTemplates {
  reader: InputReader;
  templates: string[][];
}

/** Every example value of the plan's inputs. */
function inputExampleValues(schema: Record<string, unknown>): Array<string | number> {
  return Object.values((schema.properties ?? {}) as Record<string, { examples?: unknown }>).flatMap(scalarExamples);
}

/** The tasks a plan keeps in words: its description and examples. */
export const planPhrasings = (plan: Pick<PhrasedPlan, 'description' | 'examples'>): string[] => [plan.description ?? '', ...(plan.examples ?? [])].filter(Boolean);

/** The plan's templates: its phrasings that hold an input's example, without those values; undefined when none does. */
export function phrasingTemplates(plan: PhrasedPlan): PhrasingTemplates | undefined {
  const values = inputExampleValues(plan.inputs_schema);
  if (values.length === 0) return undefined;
  const phrasings = planPhrasings(plan).slice(0, MAX_PHRASINGS);
  const templates = phrasings
    .map((p) => withoutValues(phrasingWords(p), values))
    .filter((t) => t.removed > 0)
    .map((t) => contentWords(t.text));
  return templates.length > 0 ? { reader: inputReader(plan.inputs_schema, phrasings), templates } : undefined;
}

/**
 * How well a task fills one of the templates, in [0, 1] as an alias match; undefined when the
 * task names none of the plan's inputs or fills no template.
 */
export function templateMatch(task: Words, plan: PhrasingTemplates): number | undefined {
  const named = Object.values(readInputs(plan.reader, task, {}));
  if (named.length === 0) return undefined;
  const taskWords = contentWords(withoutValues(task, named).text);
  // Every word of the template, and nearly all of the task's: a template missing a word ("deploy
  // service 310" asked as "deploy service 9001") is another job, however close.
  const filled = plan.templates.filter((t) => exactCoverage(t, taskWords) === 1 && exactCoverage(taskWords, t) >= TASK_COVERAGE);
  if (filled.length === 0) return undefined;
  return aliasMatch(filled.map((t) => exactCoverage(taskWords, t)), filled.map(() => 1));
}
