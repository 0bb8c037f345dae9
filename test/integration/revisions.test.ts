import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors';
import { createReinforcer } from '../../src/retrieval/reinforce';
import { createRecordStore } from '../../src/store/records';
import { createRevisionStore } from '../../src/store/revisions';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const actor = { actor: 'tester' };
const store = () => createRevisionStore(ctx.db);
const records = () => createRecordStore(ctx.db);

/** A valid plan payload with an intent unique to the test (structures must not collide). */
const payload = (intent = uid('intent'), ops = ['noop', 'echo']) => ({
  intent,
  plan_id: uid('plan'),
  nodes: ops.map((op, i) => ({ id: `n${i}`, op })),
  edges: ops.slice(1).map((_, i) => ({ from: `n${i}`, to: `n${i + 1}`, kind: 'control' })),
});

async function author(overrides: Record<string, unknown> = {}) {
  return (await store().create({ payload: payload(), ...overrides }, actor)).record;
}

/** The error a promise rejects with, for asserting on code and details. */
async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

const relationsOf = async (id: string) => (await records().get(id))!.relations.map((r) => `${r.predicate}:${r.target_id}`);
const actionsOf = async (id: string) => (await records().audit(id)).map((a) => `${a.action}@${a.revision}`);

describe('authoring', () => {
  it('stores a valid plan at revision 1 with an audit create', async () => {
    const plan = await author({ sensitivity: 'medium', tags: ['hand'] });
    expect(plan).toMatchObject({ type: 'plan_graph', status: 'active', revision: 1, sensitivity: 'medium', tags: ['hand'] });
    expect(await actionsOf(plan.id)).toEqual(['create@1']);
  });

  it('refuses an invalid plan with every issue, storing nothing', async () => {
    const intent = uid('bad');
    const err = await failure(
      store().create(
        {
          payload: {
            intent,
            plan_id: uid('p'),
            nodes: [{ id: 'a', op: 'noop' }, { id: 'a', op: 'noop' }, { id: 'b', op: 'noop' }],
            edges: [{ from: 'a', to: 'zz', kind: 'control' }, { from: 'b', to: 'b', kind: 'data' }],
          },
        },
        actor,
      ),
    );
    expect(err.code).toBe('invalid_plan');
    expect((err.details.issues as Array<{ code: string }>).map((i) => i.code).sort()).toEqual(['dangling_edge', 'duplicate_node', 'self_edge']);
    const stored = await ctx.db.execute(sql`SELECT 1 FROM memory_records WHERE label = ${intent}`);
    expect(stored.rows).toHaveLength(0);
  });

  it('refuses a twin of an active plan (same intent, ops and edges), naming it', async () => {
    const first = await store().create({ payload: payload('twin-' + uid()) }, actor);
    const again = { ...payload(first.record.payload.kind === 'plan_graph' ? first.record.payload.intent : ''), plan_id: uid('other') };
    const err = await failure(store().create({ payload: again }, actor));
    expect(err.code).toBe('conflict');
    expect(err.details.existing_plan_id).toBe(first.record.id);
  });
});

describe('supersede', () => {
  it('creates a new record that supersedes the old one, which becomes superseded at revision 2', async () => {
    const old = await author({ scope: 'team-x', confidence: 0.9 });
    const { record, affected } = await store().supersede(old.id, { expected_revision: 1, payload: payload(), reason: 'faster' }, actor);
    expect(affected).toEqual([{ id: old.id, status: 'superseded', revision: 2 }]);
    expect(record).toMatchObject({ status: 'active', revision: 1, scope: 'team-x', confidence: 0.9 });
    expect(record.payload.kind === 'plan_graph' && record.payload.plan_id).toBe(old.payload.kind === 'plan_graph' && old.payload.plan_id);
    expect(record.payload.kind === 'plan_graph' && record.payload.version).toBe('2');
    expect(await relationsOf(record.id)).toEqual([`supersedes:${old.id}`]);
    expect(await actionsOf(old.id)).toEqual(['create@1', 'revise@2']);
    expect(await actionsOf(record.id)).toEqual(['create@1']);
    expect((await records().get(old.id))!.status).toBe('superseded');
  });

  it('two writers with the same expected revision: exactly one wins, the other gets a conflict naming the current revision', async () => {
    const plan = await author();
    const attempts = await Promise.allSettled([
      store().supersede(plan.id, { expected_revision: 1, payload: payload() }, { actor: 'w1' }),
      store().supersede(plan.id, { expected_revision: 1, payload: payload() }, { actor: 'w2' }),
    ]);
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const lost = attempts.find((a): a is PromiseRejectedResult => a.status === 'rejected')!.reason as DomainError;
    expect(lost).toBeInstanceOf(DomainError);
    expect(lost.code).toBe('conflict');
    expect(lost.details).toMatchObject({ id: plan.id, current_revision: 2, expected_revision: 1, status: 'superseded' });
    // Only the winner's successor exists.
    const successors = await ctx.db.execute(sql`SELECT source_id FROM memory_relations WHERE target_id = ${plan.id}::uuid AND predicate = 'supersedes'`);
    expect(successors.rows).toHaveLength(1);
  });

  it('a stale expected revision is a conflict naming the current one and changes nothing', async () => {
    const plan = await author();
    await store().contest(plan.id, { expected_revision: 1, reason: 'looks wrong' }, actor);
    const err = await failure(store().supersede(plan.id, { expected_revision: 1, payload: payload() }, actor));
    expect(err.code).toBe('conflict');
    expect(err.details).toMatchObject({ current_revision: 2, expected_revision: 1 });
    expect((await records().get(plan.id))!).toMatchObject({ status: 'active', revision: 2 });
  });

  it('validates the new payload before touching anything', async () => {
    const plan = await author();
    const err = await failure(store().supersede(plan.id, { expected_revision: 1, payload: { intent: 'x', nodes: [] } }, actor));
    expect(err.code).toBe('invalid_plan');
    expect((await records().get(plan.id))!.revision).toBe(1);
  });
});

describe('fork, contest, retract, merge', () => {
  it('fork makes an independent plan forked_from the source, which stays unchanged', async () => {
    const source = await author({ sensitivity: 'low' });
    const { record } = await store().fork(source.id, { expected_revision: 1, payload: payload(uid('fork'), ['noop', 'echo', 'noop']) }, actor);
    expect(record).toMatchObject({ status: 'active', revision: 1, sensitivity: 'low' });
    expect(await relationsOf(record.id)).toEqual([`forked_from:${source.id}`]);
    expect(await actionsOf(record.id)).toEqual(['fork@1']);
    expect((await records().get(source.id))!).toMatchObject({ status: 'active', revision: 1 });
  });

  it('contest tags the plan, links the evidence and bumps the revision', async () => {
    const plan = await author();
    const evidence = await author();
    const { record } = await store().contest(plan.id, { expected_revision: 1, reason: 'failed twice', evidence_id: evidence.id }, actor);
    expect(record).toMatchObject({ revision: 2, status: 'active' });
    expect(record.tags).toContain('contested');
    expect(await relationsOf(plan.id)).toEqual([`contested_by:${evidence.id}`]);
    const audit = await records().audit(plan.id);
    expect(audit.at(-1)).toMatchObject({ action: 'revise', reason: 'failed twice', revision: 2 });
  });

  it('retract marks the plan retracted; later writes are refused with plan_retracted', async () => {
    const plan = await author();
    const { record } = await store().retract(plan.id, { expected_revision: 1, reason: 'unsafe' }, actor);
    expect(record).toMatchObject({ status: 'retracted', revision: 2 });
    expect(await actionsOf(plan.id)).toEqual(['create@1', 'delete@2']);
    const err = await failure(store().contest(plan.id, { expected_revision: 2, reason: 'again' }, actor));
    expect(err.code).toBe('plan_retracted');
    expect(err.details.current_revision).toBe(2);
  });

  it('merge makes one plan merged_from N sources, which become merged, all in one transaction', async () => {
    const a = await author({ sensitivity: 'low', scope: 'm', tags: ['x'] });
    const b = await author({ sensitivity: 'medium', scope: 'm', tags: ['y'] });
    const { record, affected } = await store().merge(
      { sources: [{ id: a.id, expected_revision: 1 }, { id: b.id, expected_revision: 1 }], payload: payload(), reason: 'same job' },
      actor,
    );
    expect(record).toMatchObject({ sensitivity: 'medium', scope: 'm', tags: ['x', 'y'], revision: 1 });
    expect((await relationsOf(record.id)).sort()).toEqual([`merged_from:${a.id}`, `merged_from:${b.id}`].sort());
    expect(affected.map((x) => x.status)).toEqual(['merged', 'merged']);
    expect(await actionsOf(record.id)).toEqual(['merge@1']);
  });

  it('a merge with one stale source changes nothing', async () => {
    const a = await author();
    const b = await author();
    await store().contest(b.id, { expected_revision: 1, reason: 'r' }, actor);
    const err = await failure(
      store().merge({ sources: [{ id: a.id, expected_revision: 1 }, { id: b.id, expected_revision: 1 }], payload: payload() }, actor),
    );
    expect(err.code).toBe('conflict');
    expect(err.details).toMatchObject({ id: b.id, current_revision: 2 });
    expect((await records().get(a.id))!).toMatchObject({ status: 'active', revision: 1 });
  });
});

describe('episodes are refused', () => {
  it('every revision and reinforcement of an episode fails with not_a_plan', async () => {
    const episode = await records().create({
      type: 'episodic',
      sensitivity: 'low',
      confidence: 1,
      payload: { kind: 'episodic', timeline: [], tool_graph: [], outcome: 'success' },
    });
    const attempts = [
      () => store().supersede(episode.id, { expected_revision: 1, payload: payload() }, actor),
      () => store().fork(episode.id, { expected_revision: 1, payload: payload() }, actor),
      () => store().contest(episode.id, { expected_revision: 1, reason: 'r' }, actor),
      () => store().retract(episode.id, { expected_revision: 1 }, actor),
      () => createReinforcer(ctx.db).reinforce(episode.id, 'tester'),
    ];
    for (const attempt of attempts) expect((await failure(attempt())).code).toBe('not_a_plan');
    expect((await records().get(episode.id))!).toMatchObject({ revision: 1, status: 'active', salience: 0 });
  });
});

describe('reinforce', () => {
  it('adds the gain to salience (capped at 1), refreshes timestamps and audits', async () => {
    const plan = await author({ salience: 0.85 });
    await ctx.db.execute(sql`UPDATE memory_records SET last_reinforced_at = now() - interval '40 days' WHERE id = ${plan.id}::uuid`);
    const first = await createReinforcer(ctx.db).reinforce(plan.id, 'tester', { reason: 'worked' });
    expect(first.salience).toBeCloseTo(0.95, 12);
    expect(Date.now() - Date.parse(first.last_reinforced_at)).toBeLessThan(60_000);
    const second = await createReinforcer(ctx.db).reinforce(plan.id, 'tester', { gain: 0.3 });
    expect(second.salience).toBe(1);
    const stored = (await records().get(plan.id))!;
    expect(stored.updated_at).toBe(stored.last_reinforced_at);
    expect(stored.revision).toBe(1);
    const audit = await records().audit(plan.id);
    expect(audit.slice(1)).toMatchObject([
      { action: 'reinforce', actor: 'tester', reason: 'worked' },
      { action: 'reinforce', actor: 'tester', reason: null },
    ]);
  });

  it('an unknown id is not_found', async () => {
    expect((await failure(createReinforcer(ctx.db).reinforce('00000000-0000-4000-8000-00000000dead', 't'))).code).toBe('not_found');
  });
});

describe('writes respect the caller trust', () => {
  it('cannot revise a plan above the clearance nor create one', async () => {
    const secret = await author({ sensitivity: 'high' });
    const trust = { max_sensitivity: 'low' as const, authenticated: true };
    expect((await failure(store().retract(secret.id, { expected_revision: 1 }, { actor: 'x', trust }))).code).toBe('not_found');
    const medium = await author({ sensitivity: 'medium' });
    expect((await failure(store().retract(medium.id, { expected_revision: 1 }, { actor: 'x', trust }))).code).toBe('forbidden');
    expect((await failure(store().create({ payload: payload(), sensitivity: 'medium' }, { actor: 'x', trust }))).code).toBe('forbidden');
  });
});
