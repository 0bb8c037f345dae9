/**
 * Retrieval against real Postgres + pgvector. Selection depends on every visible record, so this
 * file uses a database of its own (created and migrated here) instead of the run's shared one.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { EMBEDDING_DIMENSIONS } from '../../src/db/schema';
import { planGraphPayloadSchema, type Sensitivity } from '../../src/domain/records';
import { hashEmbedder, type Embedder } from '../../src/embeddings/embedder';
import { generatePlans } from '../../src/retrieval/generate-plans';
import { createRetriever, isSelectable } from '../../src/retrieval/retrieve';
import { createRecordStore } from '../../src/store/records';
import { createRevisionStore } from '../../src/store/revisions';
import { uid } from './harness';
import { emptyRecords, usePrivateDatabase } from './private-database';

const NOW = new Date();
const DAY = 86_400_000;

/** A unit vector along axis `i`, or the normalised mix a·e_i + b·e_j. */
function axis(i: number, j?: number, a = 1, b = 0): number[] {
  const v = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  v[i] = a;
  if (j !== undefined) v[j] = b;
  const norm = Math.hypot(a, b);
  return v.map((x) => x / norm);
}

// Queries name an axis; the test embedder maps "axis:N" to e_N, so cosines are known exactly.
const axisEmbedder: Embedder = {
  name: 'axis',
  embed: async (texts) => texts.map((t) => (t.startsWith('axis:') ? axis(Number(t.slice(5))) : new Array(EMBEDDING_DIMENSIONS).fill(0))),
};

let db: Db;
const threshold = 0.7;
usePrivateDatabase('retrieval', (opened) => (db = opened));
const reset = () => emptyRecords(db);

interface PlanSpec {
  intent?: string;
  confidence?: number;
  embedding?: number[] | null;
  sensitivity?: Sensitivity;
  scope?: string;
  daysAgo?: number;
  runs?: { successes: number; failures: number };
  constraints?: Record<string, unknown>;
}

async function plan(spec: PlanSpec) {
  const payload = planGraphPayloadSchema.parse({
    kind: 'plan_graph',
    plan_id: uid('plan'),
    intent: spec.intent ?? uid('intent'),
    nodes: [{ id: 'a', op: 'noop' }, { id: 'b', op: 'echo' }],
    edges: [{ from: 'a', to: 'b', kind: 'control' }],
    constraints: spec.constraints ?? {},
  });
  const record = await createRecordStore(db).create({
    type: 'plan_graph',
    sensitivity: spec.sensitivity ?? 'public',
    confidence: spec.confidence ?? 0.5,
    scope: spec.scope ?? '',
    payload,
    embedding: spec.embedding ?? null,
  });
  await db.execute(sql`UPDATE memory_records SET last_reinforced_at = ${new Date(NOW.getTime() - (spec.daysAgo ?? 0) * DAY).toISOString()}::timestamptz
    WHERE id = ${record.id}::uuid`);
  if (spec.runs) {
    await db.execute(sql`INSERT INTO plan_stats (plan_id, successes, failures) VALUES (${record.id}::uuid, ${spec.runs.successes}, ${spec.runs.failures})`);
  }
  return record;
}

const retriever = () => createRetriever({ db, embedder: axisEmbedder, threshold, mode: 'membrane' });
const publicTrust = { max_sensitivity: 'public' as const, authenticated: false };

describe('retrieval ranking', () => {
  it('scores cosine, success rate and recency exactly and ranks by score', async () => {
    await reset();
    // cos 1 → 1; (1 + 0.5 + 0.5^(60/30)=0.25) / 3 = 0.5833…
    const stale = await plan({ embedding: axis(0), daysAgo: 60, confidence: 0.99 });
    // cos 0.6 → 0.8; 9 of 10 runs succeeded → 0.9; fresh → 1: (0.8 + 0.9 + 1) / 3 = 0.9
    const fresh = await plan({ embedding: axis(0, 1, 0.6, 0.8), runs: { successes: 9, failures: 1 }, confidence: 0.1 });
    // no embedding → confidence 0.6; no runs → 0.5; 30 days → 0.5: (0.6 + 0.5 + 0.5) / 3 = 0.5333…
    const plain = await plan({ embedding: null, confidence: 0.6, daysAgo: 30 });
    const { candidates, selection } = await retriever().retrieve({ task_descriptor: 'axis:0', trust: publicTrust }, NOW);
    expect(candidates.map((c) => c.record.id)).toEqual([fresh.id, stale.id, plain.id]);
    expect(candidates[0]!.score).toBeCloseTo(0.9, 5);
    expect(candidates[0]!.signals.cosine).toBeCloseTo(0.6, 5);
    expect(candidates[1]!.score).toBeCloseTo(1.75 / 3, 5);
    expect(candidates[2]!.score).toBeCloseTo(1.6 / 3, 5);
    expect(candidates[2]!.signals.cosine).toBeUndefined();
    // (0.9 − 0.5833…) / 0.9 = 0.35185…
    expect(selection.confidence).toBeCloseTo((0.9 - 1.75 / 3) / 0.9, 5);
    expect(selection).toMatchObject({ needs_more: true, threshold: 0.7 });
  });

  it('no candidate → confidence 0; a single candidate → its score', async () => {
    await reset();
    const none = await retriever().retrieve({ task_descriptor: 'axis:3', trust: publicTrust }, NOW);
    expect(none).toEqual({ candidates: [], selection: { confidence: 0, needs_more: true, threshold, mode: 'membrane' } });
    await plan({ embedding: axis(3), runs: { successes: 4, failures: 0 } }); // (1 + 1 + 1) / 3 = 1
    const one = await retriever().retrieve({ task_descriptor: 'axis:3', trust: publicTrust }, NOW);
    expect(one.candidates).toHaveLength(1);
    expect(one.selection.confidence).toBeCloseTo(1, 5);
    expect(one.selection.needs_more).toBe(false);
  });

  it('a close pair sets needs_more, a clear winner does not', async () => {
    await reset();
    await plan({ embedding: axis(5), runs: { successes: 10, failures: 0 } }); // 1
    const twin = await plan({ embedding: axis(5), runs: { successes: 9, failures: 1 } }); // (1 + 0.9 + 1) / 3
    const close = await retriever().retrieve({ task_descriptor: 'axis:5', trust: publicTrust }, NOW);
    expect(close.selection.confidence).toBeCloseTo((1 - 2.9 / 3) / 1, 5);
    expect(close.selection.needs_more).toBe(true);
    await createRevisionStore(db).retract(twin.id, { expected_revision: 1 }, { actor: 'test' });
    await plan({ embedding: axis(6), confidence: 0.1, daysAgo: 300 }); // far from the query: (0.5 + 0.5 + ~0.001) / 3
    const clear = await retriever().retrieve({ task_descriptor: 'axis:5', trust: publicTrust }, NOW);
    expect(clear.candidates).toHaveLength(2);
    expect(clear.selection.confidence).toBeGreaterThan(0.6);
    expect(clear.selection.confidence).toBeCloseTo((1 - (1 + 0.5 ** 10) / 3) / 1, 4);
  });

  it('without a query embedding, confidence is the applicability of every record', async () => {
    await reset();
    const high = await plan({ embedding: axis(1), confidence: 0.9 });
    const low = await plan({ embedding: null, confidence: 0.3 });
    const { candidates } = await retriever().retrieve({ task_descriptor: 'no axis here', trust: publicTrust }, NOW);
    expect(candidates.map((c) => c.record.id)).toEqual([high.id, low.id]);
    expect(candidates.map((c) => c.signals.applicability)).toEqual([0.9, 0.3]);
  });

  it('honours limit and memory_types; other types are listed but never selected', async () => {
    await reset();
    for (let i = 0; i < 4; i++) await plan({ embedding: axis(7) });
    const limited = await retriever().retrieve({ task_descriptor: 'axis:7', trust: publicTrust, limit: 2 }, NOW);
    expect(limited.candidates).toHaveLength(2);
    // Four identical plans: selection sees them all (not only the two returned) → confidence 0.
    expect(limited.selection.confidence).toBe(0);
    await createRecordStore(db).create({
      type: 'competence',
      sensitivity: 'public',
      confidence: 0.8,
      embedding: axis(7),
      payload: {
        kind: 'competence', skill_name: uid('skill'), triggers: [], recipe: [], required_tools: [], version: '1',
        performance: { success_count: 5, failure_count: 0, success_rate: 1, avg_latency_ms: 0, last_used_at: null },
      },
    });
    const plansOnly = await retriever().retrieve({ task_descriptor: 'axis:7', trust: publicTrust, limit: 10 }, NOW);
    expect(plansOnly.candidates.every((c) => c.record.type === 'plan_graph')).toBe(true);
    const skills = await retriever().retrieve({ task_descriptor: 'axis:7', trust: publicTrust, memory_types: ['competence'] }, NOW);
    expect(skills.candidates.map((c) => c.record.type)).toEqual(['competence']);
    expect(skills.candidates[0]!.score).toBeCloseTo(1, 5);
    expect(skills.selection.confidence).toBe(0);
  });

  it('a missing trust context is an error', async () => {
    await expect(retriever().retrieve({ task_descriptor: 'axis:0' } as never, NOW)).rejects.toThrow(/trust/);
  });
});

describe('retrieval excludes what may not be selected', () => {
  it('never returns retracted, superseded or merged plans', async () => {
    await reset();
    const revisions = createRevisionStore(db);
    const retracted = await plan({ embedding: axis(9) });
    const superseded = await plan({ embedding: axis(9) });
    const kept = await plan({ embedding: axis(9), intent: 'kept' });
    await revisions.retract(retracted.id, { expected_revision: 1, reason: 'broken' }, { actor: 'test' });
    const { record: successor } = await revisions.supersede(
      superseded.id,
      { expected_revision: 1, payload: { intent: 'axis successor', nodes: [{ id: 'x', op: 'noop' }] } },
      { actor: 'test' },
    );
    // Give the successor the same direction so it competes on equal terms.
    await db.execute(sql`UPDATE memory_records SET embedding = ${`[${axis(9).join(',')}]`}::vector WHERE id = ${successor.id}::uuid`);
    const { candidates } = await retriever().retrieve({ task_descriptor: 'axis:9', trust: publicTrust }, NOW);
    expect(candidates.map((c) => c.record.id).sort()).toEqual([kept.id, successor.id].sort());
  });
});

describe('retrieval under trust', () => {
  it('shows records up to the clearance, redacts one level above, hides two above', async () => {
    await reset();
    const ids: Record<string, string> = {};
    for (const s of ['public', 'low', 'medium', 'high', 'hyper'] as const) ids[s] = (await plan({ embedding: axis(11), sensitivity: s })).id;
    const { candidates } = await retriever().retrieve({ task_descriptor: 'axis:11', trust: { max_sensitivity: 'low', authenticated: true } }, NOW);
    const seen = Object.fromEntries(candidates.map((c) => [c.record.id, c.redacted]));
    expect(seen).toEqual({ [ids.public!]: false, [ids.low!]: false, [ids.medium!]: true });
    const redacted = candidates.find((c) => c.redacted)!;
    expect(Object.keys(redacted.record).sort()).toEqual(
      ['confidence', 'created_at', 'id', 'last_reinforced_at', 'scope', 'sensitivity', 'tags', 'type', 'updated_at'],
    );
  });

  it('a redacted record is listed but never counts for selection', async () => {
    await reset();
    await plan({ embedding: axis(12), sensitivity: 'low', runs: { successes: 3, failures: 0 } }); // 1.0, redacted for public
    const visible = await plan({ embedding: axis(12), sensitivity: 'public', confidence: 0.5, daysAgo: 30 }); // (1 + 0.5 + 0.5) / 3
    const { candidates, selection } = await retriever().retrieve({ task_descriptor: 'axis:12', trust: publicTrust }, NOW);
    expect(candidates.map((c) => c.redacted)).toEqual([true, false]);
    expect(candidates.filter((c) => isSelectable(c, publicTrust)).map((c) => c.record.id)).toEqual([visible.id]);
    expect(selection.confidence).toBeCloseTo(2 / 3, 5); // the only selectable candidate
  });

  it('matches scopes: unscoped and granted scopes only; no scopes means any', async () => {
    await reset();
    const open = await plan({ embedding: axis(13), scope: '' });
    const mine = await plan({ embedding: axis(13), scope: 'team-a' });
    const theirs = await plan({ embedding: axis(13), scope: 'team-b' });
    const scoped = await retriever().retrieve({ task_descriptor: 'axis:13', trust: { ...publicTrust, scopes: ['team-a'] } }, NOW);
    expect(scoped.candidates.map((c) => c.record.id).sort()).toEqual([open.id, mine.id].sort());
    const any = await retriever().retrieve({ task_descriptor: 'axis:13', trust: publicTrust }, NOW);
    expect(any.candidates.map((c) => c.record.id).sort()).toEqual([open.id, mine.id, theirs.id].sort());
  });

  it('a plan the caller may not run is listed but not selectable', async () => {
    await reset();
    await plan({ embedding: axis(14), constraints: { requires_authenticated: true } });
    const { candidates, selection } = await retriever().retrieve({ task_descriptor: 'axis:14', trust: publicTrust }, NOW);
    expect(candidates).toHaveLength(1);
    expect(selection.confidence).toBe(0);
  });
});

describe('retrieval at scale', () => {
  it('uses the HNSW index for the nearest-neighbour search and fills the pool through filters', async () => {
    await reset();
    await generatePlans(db, { count: 3000, batchSize: 1000, deferIndex: true });
    await db.execute(sql`ANALYZE memory_records`);
    const result = await createRetriever({ db, threshold, mode: 'membrane' }).retrieve({ task_descriptor: 'x', trust: publicTrust }, NOW);
    expect(result.candidates).toHaveLength(10);
    const real = createRetriever({ db, embedder: hashEmbedder, threshold, mode: 'membrane' });
    const found = await real.retrieve({ task_descriptor: 'backup the database nightly', trust: publicTrust, limit: 20 }, NOW);
    // Filters (public/low only: ~2/5 of rows) still leave a full page thanks to iterative scanning.
    expect(found.candidates).toHaveLength(20);
    expect(found.candidates.every((c) => ['public', 'low'].includes(c.record.sensitivity))).toBe(true);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL hnsw.iterative_scan = relaxed_order`);
      const explained = await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`EXPLAIN SELECT r.id FROM memory_records r
        WHERE r.type = ANY('{plan_graph}'::text[]) AND r.status = 'active' AND r.sensitivity_rank <= 1 AND r.embedding IS NOT NULL
        ORDER BY r.embedding <=> (SELECT embedding FROM memory_records LIMIT 1) LIMIT 100`));
      return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('memory_records_embedding_hnsw');
  });
});
