/**
 * Inputs of structural twins by name: which node of a twin stands for which of the plan's, a twin
 * read with the plan's input names, and inputs the twins always passed alike joined into one
 * (generalise.ts).
 */
import type { PlanGraphPayload } from '../domain/records';
import { canonicalNames } from '../domain/structure';
import { TEMPLATE } from '../domain/refs';
import { inputRef, inputRefName, InputSet } from './input-schema';
import { isPlainObject, leaves } from './json-leaves';
import { fitTemplate, TEMPLATE_ONLY } from './text-differences';

type Params = Record<string, unknown>;

/**
 * Pairs each node of `plan` with a node of its structural twin: nodes with the same canonical
 * name (op and neighbourhood), in node order.
 */
export function twinNodes(plan: PlanGraphPayload, twin: PlanGraphPayload): Map<string, Params | undefined> {
  const queues = new Map<string, Params[]>();
  const twinNames = canonicalNames(twin);
  for (const node of twin.nodes) {
    const name = twinNames.get(node.id)!;
    queues.set(name, [...(queues.get(name) ?? []), node.params]);
  }
  const names = canonicalNames(plan);
  return new Map(plan.nodes.map((node) => [node.id, queues.get(names.get(node.id)!)?.shift()]));
}

/**
 * The twin with its inputs renamed to the plan's where it reads them in the same places: one
 * episode's task named a service `deploy` ("Deploy orders-api …"), its twin's `ship`, and their
 * texts (`deployment/{{inputs.deploy}} -n staging`, `deployment/{{inputs.ship}} -n prod`) then
 * differ only in what they really differ in. A twin input read where the plan reads different
 * ones, or whose plan name the twin already uses otherwise, keeps its name.
 */
export function withPlanInputNames(plan: PlanGraphPayload, twin: PlanGraphPayload): PlanGraphPayload {
  /** The plan's name for each twin input, null where the twin reads it where the plan reads different ones. */
  const names = new Map<string, string | null>();
  const record = (planName: string | undefined, twinName: string | undefined) => {
    if (!planName || !twinName) return;
    const known = names.get(twinName);
    names.set(twinName, known === undefined || known === planName ? planName : null);
  };
  const pairs = twinNodes(plan, twin);
  for (const node of plan.nodes) {
    const twinParams = pairs.get(node.id);
    if (!twinParams) continue;
    const theirs = new Map(leaves(twinParams).map((leaf) => [JSON.stringify(leaf.path), leaf.value]));
    for (const leaf of leaves(node.params)) {
      const other = theirs.get(JSON.stringify(leaf.path));
      if (typeof leaf.value !== 'string' || typeof other !== 'string') continue;
      // Where the twin's text fits the plan's, what stands in each input's place; else template by template.
      const fitted = fitTemplate(leaf.value, other);
      if (fitted) for (const [planName, value] of fitted) record(planName, TEMPLATE_ONLY.test(value) ? inputRefName(value) : undefined);
      const [mine, their] = [[...leaf.value.matchAll(TEMPLATE)], [...other.matchAll(TEMPLATE)]];
      if (!fitted && mine.length === their.length) mine.forEach((m, i) => record(inputRefName(m[0]), inputRefName(their[i]![0])));
    }
  }
  // All at once (the twin's `cmd` may become `deploy` while its `cmd_2` becomes `cmd`), never two
  // onto one name nor onto a name the twin keeps: then the twin is read as it is.
  const renames = new Map([...names].filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== entry[0]));
  const kept = InputSet.from(twin.inputs_schema).names().filter((name) => !renames.has(name));
  const targets = [...renames.values()];
  if (renames.size === 0 || new Set(targets).size !== targets.length || targets.some((to) => kept.includes(to))) return twin;
  const renamed = (name: string) => renames.get(name) ?? name;
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(TEMPLATE, (template) => (renames.has(inputRefName(template) ?? '') ? inputRef(renamed(inputRefName(template)!)) : template));
    if (Array.isArray(value)) return value.map(rename);
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rename(item)]));
    return value;
  };
  const properties = (twin.inputs_schema as { properties?: Record<string, unknown> }).properties ?? {};
  const required = (twin.inputs_schema as { required?: string[] }).required;
  return {
    ...twin,
    nodes: twin.nodes.map((node) => ({ ...node, params: rename(node.params) as Params })),
    inputs_schema: {
      ...twin.inputs_schema,
      properties: Object.fromEntries(Object.entries(properties).map(([name, schema]) => [renamed(name), schema])),
      ...(required ? { required: required.map(renamed) } : {}),
    },
  };
}

/**
 * One input for what the twins always passed alike: `region` taken whole and `region_2` inside a
 * title ("Sales EMEA", "Sales NA-EAST") stand for the same value, which a caller should send once.
 */
export function withSameInputsJoined(nodes: PlanGraphPayload['nodes'], inputs: InputSet): PlanGraphPayload['nodes'] {
  let joined = nodes;
  for (const [keep, same] of inputs.sameValued()) {
    joined = joined.map((node) => ({ ...node, params: renameInput(node.params, same, keep) as Params }));
    inputs.remove(same);
  }
  return joined;
}

/** A JSON value with every `{{inputs.<from>}}` reading `{{inputs.<to>}}` instead. */
function renameInput(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.replaceAll(inputRef(from), inputRef(to));
  if (Array.isArray(value)) return value.map((item) => renameInput(item, from, to));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renameInput(item, from, to)]));
  return value;
}
