/**
 * Selection quality on the labelled set (bench/selection): does an agent's own phrasing find the
 * plan it means, and does the selector auto-run only when it is right? Several selectors side by
 * side, each over its own scratch database holding the same plans.
 */
import { sql } from 'drizzle-orm';
import { createDb, createScratchDatabase } from '../../src/db/client';
import { hashEmbed, hashEmbedder, type Embedder } from '../../src/embeddings/embedder';
import { createSemanticEmbedder } from '../../src/embeddings/semantic-embedder';
import { createRetriever, isSelectable, type RetrieverOptions } from '../../src/retrieval/retrieve';
import { fitCalibration, recalibrated } from '../selection/calibrate';
import { createRecordStore } from '../../src/store/records';
import { createAliasLearner } from '../../src/store/aliases';
import type { PlanGraphPayload, TrustContext } from '../../src/domain/records';
import { crossValidate, type QueryPool } from '../selection/cross-validate';
import { describeMetrics, metricsByKind, type QueryOutcome } from '../selection/evaluate';
import { LABELLED_PLANS, labelledPayload, labelledQueries, type LabelledQuery } from '../selection/labelled-set';
import { learningFolds } from '../selection/learning';
import type { Figure, Scenario } from '../lib/scenario';
import { round } from '../lib/stats';
import { actionConflict, planActionNames } from '../../src/domain/action-words';
import { nearPlan, OTHER_ACTION_TASKS, sameActionFigures } from '../selection/other-actions';
import { fewPlanFigures, otherActionFigures } from '../selection/visible-plans';
import { fixedValueFigures } from '../selection/fixed-values';
import { confidenceFeatures } from '../../src/domain/selection';

const TRUST: TrustContext = { max_sensitivity: 'high', authenticated: true };
const CV_FOLDS = 5;

/** One selector under test: how plans are embedded and how the retriever ranks and decides. */
export interface SelectionVariant {
  name: string;
  embedder: Embedder;
  /** The stored embedding of a plan; by default the store's own (the embedder over the plan document). */
  embedPlan?(payload: PlanGraphPayload): number[];
  retriever: Omit<RetrieverOptions, 'db' | 'embedder'>;
  /**
   * Fit this selector's own calibration on the set (selectors that do not ship coefficients), so
   * auto-run rate and precision compare like with like; the shipped selector uses its constants.
   */
  refit?: boolean;
  /** Whether the issue's goals apply (the shipped selector). */
  goals?: boolean;
}

const semantic = createSemanticEmbedder();

export const SELECTION_VARIANTS: SelectionVariant[] = [
  // Before plan documents: the intent label alone, through hashed n-grams, and the membrane formula.
  { name: 'before (membrane, hash, intent only)', embedder: hashEmbedder, embedPlan: (payload) => hashEmbed(payload.intent), retriever: { mode: 'membrane' } },
  { name: 'lexical only (BM25F)', embedder: semantic, retriever: { match: 'lexical' }, refit: true },
  { name: 'dense only (word alignment)', embedder: semantic, retriever: { match: 'dense' }, refit: true },
  // The previous shipped selector: sentence cosine as the dense evidence (an embedder without word alignment).
  { name: 'hybrid, sentence cosine (previous)', embedder: { name: semantic.name, embed: (texts) => semantic.embed(texts) }, retriever: {}, refit: true },
  { name: 'hybrid, reciprocal rank fusion', embedder: semantic, retriever: { fusion: 'rrf' }, refit: true },
  { name: 'hybrid, calibrated weights (shipped)', embedder: semantic, retriever: {}, goals: true },
];

/** What one variant did with the labelled set: each phrasing's outcome, and the evidence of its whole candidate pool. */
export interface VariantRun {
  outcomes: QueryOutcome[];
  pools: QueryPool[];
}

const LIMIT = 10;

/** What a variant is evaluated on: the phrasings asked (all by default), after plans learned some as aliases. */
export interface EvaluationOptions {
  queries?: readonly LabelledQuery[];
  /** Phrasings learned as aliases of their plans before asking, as use teaches them (src/store/aliases.ts). */
  learned?: readonly LabelledQuery[];
}

/** Runs labelled phrasings against one variant in a database of its own. */
export async function evaluateVariant(baseUrl: string, variant: SelectionVariant, options: EvaluationOptions = {}): Promise<VariantRun> {
  const database = await createScratchDatabase(baseUrl, 'bench_selection');
  const db = createDb(database.url, 2);
  try {
    const records = createRecordStore(db, variant.embedder);
    const ids: string[] = [];
    for (const [index, plan] of LABELLED_PLANS.entries()) {
      const payload = labelledPayload(plan, index);
      const record = await records.create({
        type: 'plan_graph',
        sensitivity: 'low',
        confidence: 0.5,
        tags: plan.tags,
        payload,
        ...(variant.embedPlan ? { embedding: variant.embedPlan(payload) } : {}),
      });
      ids.push(record.id);
    }
    const aliases = createAliasLearner(db);
    for (const query of options.learned ?? []) await aliases.learn(ids[query.plan]!, query.text, 'bench', 'learned in the selection bench');
    // What each plan is known to do, for the action gate of the offline figures, as the retriever reads it.
    const learnedBy = (index: number) => (options.learned ?? []).filter((q) => q.plan === index).map((q) => q.text);
    const names = LABELLED_PLANS.map((plan, index) => planActionNames(labelledPayload(plan, index), learnedBy(index)));
    await db.execute(sql`ANALYZE memory_records`);
    const retriever = createRetriever({ db, embedder: variant.embedder, ...variant.retriever });
    const outcomes: QueryOutcome[] = [];
    const pools: QueryPool[] = [];
    for (const query of options.queries ?? labelledQueries()) {
      // The whole pool (at most 100) for cross-validation; ranks count within the first LIMIT, as an answer lists them.
      const { candidates, selection } = await retriever.retrieve({ task_descriptor: query.text, trust: TRUST, limit: 100 });
      const ranked = candidates.filter((c) => isSelectable(c, TRUST));
      const index = ranked.slice(0, LIMIT).findIndex((c) => c.record.id === ids[query.plan]);
      pools.push({
        query,
        candidates: ranked.map((c) => ({
          labelled: c.record.id === ids[query.plan],
          lexical: c.signals.lexical ?? 0,
          alignment: c.signals.alignment ?? 0,
          history: c.score - c.signals.applicability,
          conflicts: actionConflict(query.text, names[ids.indexOf(c.record.id)] ?? []) !== undefined,
        })),
      });
      outcomes.push({
        query,
        rank: index + 1,
        autoRun: !selection.needs_more,
        withheld: selection.action_conflict !== undefined,
        confidence: selection.confidence,
        ...(confidenceFeatures(ranked.map((c) => ({ match: c.signals.applicability, score: c.score }))) ?? { top: 0, margin: 0 }),
      });
    }
    return { outcomes: variant.refit ? recalibrated(outcomes, fitCalibration(outcomes)) : outcomes, pools };
  } finally {
    await db.$client.end();
    await database.drop();
  }
}

export const selection: Scenario = {
  name: 'selection',
  title: 'Plan selection from an agent’s own words (labelled set)',
  method:
    `${LABELLED_PLANS.length} realistic plans (devops, data, support; near-neighbours such as backup vs restore vs refresh-staging, ` +
    `refund vs credit, erase vs export personal data) and ${labelledQueries().length} labelled phrasings in bench/selection: ` +
    '`label` repeats the intent, `paraphrase` rewords it, `domain` is practitioner language sharing no content word with the intent. ' +
    'Each phrasing is one `retrieve` (trust high/authenticated, limit 10); top-1 = the labelled plan ranks first, MRR over the ' +
    'ranked selectable candidates, auto-run = the selector would run without asking, precision = share of auto-runs that picked ' +
    'the labelled plan. Each selector gets a database of its own holding the same plans.',
  analysis:
    'The seed selector embedded the intent label alone through hashed n-grams: it finds label wording (1.00) and most ' +
    'paraphrases, which on this set reuse intent words, but almost no domain language (0.08), and its membrane confidence ' +
    '(best − second) / best over scores differing by hundredths never reaches 0.7, so it auto-runs nothing. The plan ' +
    'document is what moves domain language: descriptions, op names, input descriptions and tags carry the words ' +
    'practitioners use (pg_dump, cloudfront, zendesk), and BM25F weighs rare words up. The dense side is a word alignment: ' +
    'each task word scored by its best word-vector cosine against the plan document (vectors with the mean and top 8 ' +
    'principal directions removed), averaged. The SIF sentence cosine it replaces was weak alone (domain 0.33) and added ' +
    'nothing to lexical at weight 0.2, because one telling pair ("recover" ~ "restore") is averaged away in a sentence ' +
    'vector; the alignment keeps it, and fused 0.6/0.4 with lexical lifts domain language by 8 points. Query expansion ' +
    'from the same word vectors (nearest neighbours, soft term matches in BM25F) and WordNet synonyms were measured and ' +
    'hurt: general-English neighbours are as often noise as help. Reciprocal rank fusion flattens margins, so its fitted ' +
    'confidence can hardly separate right from wrong. The calibrated confidence (logistic in match and margin, fitted on ' +
    'all 190 phrasings) is what turns a good ranking into safe auto-runs: label and paraphrase phrasings mostly auto-run, ' +
    'domain language mostly asks (needs_more), which is the right failure. Remaining misses are near-neighbours sharing ' +
    'incidental words ("orders" → refund order, "release" → canary release) and phrasings whose meaning no word vector ' +
    'carries; learned aliases fix those for the next request. Selectors without shipped coefficients get their own ' +
    'calibration fitted on the set, so auto-run rates compare like with like. The shipped weights and calibration were ' +
    'chosen on this same set, so the cross-validated rows estimate what a held-out set would show: 5 folds by plan, the ' +
    'lexical weight and the calibration chosen on the other folds\' phrasings, each fold\'s phrasings ranked and decided ' +
    'with them. Every fold chose weight 0.6 (ranking is unchanged); precision drops from 0.99 to 0.97 (4 wrong auto-runs ' +
    'of 116 instead of 1, near-neighbours whose wording the wrong plan repeats). The visible-plans rows ask each phrasing ' +
    'against 20 seeded random sets of 1, 2, 3 and 5 plans, without its plan and with it: a caller of a new deployment or a ' +
    'narrow scope. Measured against its actual runner-up, the better of two unrelated plans auto-ran for 9.8% of tasks ' +
    '(12.6% with five); a runner-up now counts as at least 0.3, what an unrelated plan scores, and with the coefficients ' +
    'refitted on that feature 2.2% (4.8%) do, while 0.60 of the whole set still auto-runs at precision 0.99 (0.63 at ' +
    '0.98 before). Further ranking changes measured on the ' +
    'set gained at most one phrasing of 190 (most lost several) and were not kept: section weights in the alignment, a floor or power on word ' +
    'cosines, reverse alignment (plan name words against the task), stem-equal words counted as exact in the alignment, ' +
    'per-query max-normalised fusion, and BM25F section weights, k1 and b. Two more were measured on this set\'s candidate ' +
    'pools and not kept: weighting task words by rarity in the alignment (SIF or log-rank weights: domain 0.54–0.68, none ' +
    'above uniform), and a sentence encoder whose weights ship in an npm package (Universal Sentence Encoder lite, ' +
    '512 dimensions, TensorFlow.js on the CPU, ~11 ms per query): alone it beats the SIF sentence cosine (domain 0.42 vs 0.33) ' +
    'but not the word alignment (0.62); as a third evidence beside lexical and alignment the best weights gained 2 of 190 ' +
    'phrasings in-sample and lost 4 under 5-fold cross-validation (top-1 0.826), for 11 ms more per query. Two more were ' +
    'measured on the shipped pipeline and not kept: spelling rules for operations abbreviations in the alignment (clipped ' +
    'words "prod", "env", "creds"; numeronyms "k8s"; compound initials "db"; acronyms of consecutive words), +1 phrasing at ' +
    'best (0.853), because the general-English vectors are the limit (cosine "db"~"database" 0.08, "revert"~"rollback" ' +
    '0.005, "pods"~"replicas" 0); and an action-word term (the intent\'s first word against the task\'s words) mixed into ' +
    'the alignment, which lowered domain language to 0.59–0.63. The learning rows measure the loop of learned aliases: every ' +
    'plan learns one paraphrase and one domain phrasing (two folds), then is asked its other phrasings and the learned ones ' +
    'again. Aliases used to join the document\'s name section, where a learned phrasing\'s incidental words drew other ' +
    'tasks to the plan (unlearned phrasings 0.81 → 0.75 top-1, domain 0.70 → 0.55); they are now matched as whole ' +
    'phrasings, which leaves the unlearned phrasings exactly as before while every learned phrasing asked again is found and auto-run. ' +
    'The "another action" rows ask 32 tasks that do another thing to a labelled plan\'s object ("pause the stuck sidekiq workers", ' +
    '"revoke the stripe api keys"; bench/selection/other-actions.ts), which no plan does, so every auto-run is wrong. On confidence ' +
    'alone most auto-ran, and almost all when the related plan was the only one visible: word vectors put stop, start and ' +
    'restart (purge and warm, rotate and revoke) close together. The action gate (src/domain/action-words.ts) holds the top ' +
    'plan back when the task\'s leading verb is of another class than every leading verb of the plan\'s intent, examples and ' +
    'aliases. It changes no ranking and holds back none of the labelled phrasings; the verb classes were chosen with those in ' +
    'view, so 69 phrasings of plans\' own actions in other verbs, written afterwards, measure its cost on unseen wording. ' +
    'The "value gate" rows ask tasks of plans with fixed params (bench/selection/fixed-value-cases*.ts), each set written by a ' +
    'helper that had seen neither the gate\'s code nor the other sets; a task is the same job (new input values, incidental ' +
    'addresses and ids, other words, a param\'s name in passing) or names another value for a fixed param. The gate ' +
    '(src/domain/fixed-values.ts) is a pure function of the top plan and the task, so it is applied to each plan directly. ' +
    'Set 1 (97 tasks, 60 run / 37 hold): first run held back 1 of 60 and 16 of 37; kinds were then made case-blind, chat ' +
    'channels a kind, a value ending the task after a preposition read and an address after the param\'s own name counted ' +
    '(22 of 37). Then two readings were added with set 1 in view: members of closed classes (formats, currencies, languages, ' +
    'environments…; src/domain/value-classes.ts) and the word beside a fixed param\'s name (src/domain/keyed-values.ts). ' +
    'Set 2 (141 tasks, 84 / 57), first run of that gate: 5 of 84 and 41 of 57 held back (the gate before: 3 of 84, 20 of 57); ' +
    'its false holds were then fixed (a ticket number read as a channel, a value read across a sentence end, a hyphenated word ' +
    'after "the" read as an id, a name qualifying the next word, a region by its place) with plurals, locales and two-word ' +
    'names. Set 3 (120 tasks, 72 / 48), first run: 3 of 72 and 24 of 48 (the gate before: the same 3, 12 of 48); then a part ' +
    'of the fixed value or a plain word where it is a version stopped counting, a value set aside ("instead of zstd") stopped ' +
    'naming it, and currency signs and cloud regions became kinds. So only each set\'s first run is held out; the rows below ' +
    'are after all of it. What is let through is mostly a value in other words (durations in other units, "keep it for a year", ' +
    '"a draft", another social network) or one whose kind an input also takes.',
  async run(env, log) {
    const figures: Figure[] = [];
    const notes: string[] = [];
    for (const variant of SELECTION_VARIANTS) {
      const run = await evaluateVariant(env.config.DATABASE_URL, variant);
      const metrics = metricsByKind(run.outcomes);
      const line = describeMetrics(variant.name, metrics);
      log(line);
      notes.push(line);
      const goal = (value: number) => (variant.goals ? { target: { op: '>=' as const, value } } : {});
      figures.push(
        { label: `${variant.name}: top-1`, value: round(metrics.overall.top1), ...goal(0.9) },
        { label: `${variant.name}: top-1 domain language`, value: round(metrics.domain.top1), ...goal(0.8) },
        { label: `${variant.name}: MRR`, value: round(metrics.overall.mrr) },
        { label: `${variant.name}: auto-run rate`, value: round(metrics.overall.autoRunRate), ...goal(0.6) },
        // Precision of no auto-runs at all is undefined, not perfect.
        { label: `${variant.name}: auto-run precision`, value: metrics.overall.autoRunRate > 0 ? round(metrics.overall.precision) : 'n/a', ...goal(0.98) },
      );
      if (variant.goals) {
        const withheld = run.outcomes.filter((o) => o.withheld);
        figures.push(
          { label: 'labelled phrasings the action gate held back', value: withheld.length },
          { label: 'labelled phrasings the action gate held back, right plan first', value: withheld.filter((o) => o.rank === 1).length },
        );
        figures.push(...fewPlanFigures(run.pools));
        const queries = OTHER_ACTION_TASKS.map((task) => ({ text: task.text, kind: 'paraphrase' as const, plan: nearPlan(task.near) }));
        const other = await evaluateVariant(env.config.DATABASE_URL, variant, { queries });
        figures.push(...otherActionFigures(other.outcomes, other.pools), ...sameActionFigures());
        const fixed = fixedValueFigures();
        figures.push(...fixed.figures);
        notes.push(...fixed.notes);
        const ran = other.outcomes.filter((o) => o.autoRun).map((o) => `"${o.query.text}"`);
        const line = `another action, all plans visible: ${ran.length} of ${other.outcomes.length} auto-ran with the action gate${ran.length > 0 ? ` (${ran.join(', ')})` : ''}`;
        log(line);
        notes.push(line);
        figures.push(...crossValidatedFigures(run.pools, notes, log));
        figures.push(...(await learningFigures(env.config.DATABASE_URL, variant, run.outcomes, notes, log)));
      }
    }
    return { figures, notes };
  },
};

/**
 * The shipped selector's figures estimated for unseen plans and phrasings: 5-fold cross-validation
 * by plan, the fusion weight and calibration chosen on the other folds (bench/selection/cross-validate.ts).
 */
function crossValidatedFigures(pools: readonly QueryPool[], notes: string[], log: (line: string) => void): Figure[] {
  const { outcomes, weights } = crossValidate(pools, CV_FOLDS);
  const metrics = metricsByKind(outcomes);
  const name = `cross-validated (${CV_FOLDS}-fold by plan)`;
  const line = `${describeMetrics(name, metrics)}; lexical weights chosen per fold: ${weights.join(', ')}`;
  log(line);
  notes.push(line);
  return [
    { label: `${name}: top-1`, value: round(metrics.overall.top1) },
    { label: `${name}: top-1 domain language`, value: round(metrics.domain.top1) },
    { label: `${name}: MRR`, value: round(metrics.overall.mrr) },
    { label: `${name}: auto-run rate`, value: round(metrics.overall.autoRunRate) },
    { label: `${name}: auto-run precision`, value: metrics.overall.autoRunRate > 0 ? round(metrics.overall.precision) : 'n/a' },
  ];
}

/**
 * The learning loop: the shipped selector after every plan learned one paraphrase and one domain
 * phrasing as aliases (as a run named by plan_id after needs_more, or a reinforcement, teaches
 * them). Asked again, the learned phrasings should be found and auto-run; the phrasings not
 * learned should rank as well as before learning (learned words must not draw other tasks).
 * Folds (bench/selection/learning.ts) make every non-label phrasing learned once and asked unlearned once.
 */
async function learningFigures(
  baseUrl: string,
  variant: SelectionVariant,
  before: readonly QueryOutcome[],
  notes: string[],
  log: (line: string) => void,
): Promise<Figure[]> {
  const unlearned: QueryOutcome[] = [];
  const repeated: QueryOutcome[] = [];
  for (const { learned, asked } of learningFolds(labelledQueries())) {
    const { outcomes } = await evaluateVariant(baseUrl, variant, { learned, queries: [...asked, ...learned] });
    unlearned.push(...outcomes.slice(0, asked.length));
    repeated.push(...outcomes.slice(asked.length));
  }
  const asked = new Set(unlearned.map((o) => o.query.text));
  const rows = [
    ['unlearned phrasings, before learning', metricsByKind(before.filter((o) => asked.has(o.query.text)))],
    ['unlearned phrasings, after learning', metricsByKind(unlearned)],
    ['learned phrasings asked again', metricsByKind(repeated)],
  ] as const;
  return rows.flatMap(([name, metrics]) => {
    const line = `learning: ${describeMetrics(name, metrics)}`;
    log(line);
    notes.push(line);
    return [
      { label: `learning, ${name}: top-1`, value: round(metrics.overall.top1) },
      { label: `learning, ${name}: top-1 domain language`, value: round(metrics.domain.top1) },
      { label: `learning, ${name}: auto-run rate`, value: round(metrics.overall.autoRunRate) },
      { label: `learning, ${name}: auto-run precision`, value: metrics.overall.autoRunRate > 0 ? round(metrics.overall.precision) : 'n/a' },
    ];
  });
}
