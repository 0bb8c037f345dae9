/**
 * The labelled selection set: realistic stored plans with deliberate near-neighbours, and task
 * phrasings an agent might send, each labelled with the plan it means. Phrasings come in three
 * kinds: `label` repeats the intent's words, `paraphrase` says the same in other words, `domain`
 * is how a practitioner would put it and shares no content word with the intent (checked by
 * `domainOverlap`, which the unit tests run over the whole set).
 */
import { planGraphPayloadSchema, type PlanGraphPayload } from '../../src/domain/records';
import { DATA_PLANS } from './plans-data';
import { DEVOPS_PLANS } from './plans-devops';
import { SUPPORT_PLANS } from './plans-support';

export const PHRASING_KINDS = ['label', 'paraphrase', 'domain'] as const;
export type PhrasingKind = (typeof PHRASING_KINDS)[number];

/** A plan of the set as its author would store it, with the phrasings that mean it. */
export interface LabelledPlan {
  intent: string;
  description: string;
  tags: string[];
  /** Input name → what it is (becomes the inputs schema). */
  inputs: Record<string, string>;
  outputs: Record<string, string>;
  /** The steps, in order: op and params. */
  steps: Array<[op: string, params: Record<string, unknown>]>;
  phrasings: Record<PhrasingKind, string[]>;
}

export interface LabelledQuery {
  text: string;
  kind: PhrasingKind;
  /** Index of the plan it means in LABELLED_PLANS. */
  plan: number;
}

export const LABELLED_PLANS: readonly LabelledPlan[] = [...DEVOPS_PLANS, ...DATA_PLANS, ...SUPPORT_PLANS];

/** Every phrasing of every plan, with its label. */
export function labelledQueries(plans: readonly LabelledPlan[] = LABELLED_PLANS): LabelledQuery[] {
  return plans.flatMap((plan, index) => PHRASING_KINDS.flatMap((kind) => plan.phrasings[kind].map((text) => ({ text, kind, plan: index }))));
}

const objectSchema = (fields: Record<string, string>) => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, { type: 'string', description }])),
});

/** The plan-graph payload of a labelled plan: its steps in a line, joined by data edges. */
export function labelledPayload(plan: LabelledPlan, index: number): PlanGraphPayload {
  const nodes = plan.steps.map(([op, params], i) => ({ id: `s${i + 1}`, op, params }));
  return planGraphPayloadSchema.parse({
    kind: 'plan_graph',
    plan_id: `labelled-${index}`,
    intent: plan.intent,
    description: plan.description,
    inputs_schema: objectSchema(plan.inputs),
    outputs_schema: objectSchema(plan.outputs),
    nodes,
    edges: nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id, kind: 'data' })),
  });
}

const STOPWORDS = new Set(
  'a an the and or of to for in on at by with from into onto up down out off over under is are was be been it its this that these those our their my your we i me us them they he she his her as so if then than all any some every each no not can could should would will just please also last next new old'.split(' '),
);

/** Lower-cased word stems (a trailing "s" dropped) of the content words of a text. */
export function contentStems(text: string): Set<string> {
  const words = text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !STOPWORDS.has(w));
  return new Set(words.map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w)));
}

/** Content words a domain-language phrasing shares with its plan's intent (should be none). */
export function domainOverlap(plan: LabelledPlan, phrasing: string): string[] {
  const intent = contentStems(plan.intent);
  return [...contentStems(phrasing)].filter((w) => intent.has(w));
}
