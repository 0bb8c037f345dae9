/**
 * An agent that logs only chat turns and tool calls names none of its tasks: consolidation tells
 * its jobs apart by what their calls do (the task's values left out), so two jobs through the
 * same generic tools become two plans, each named after its task, and a later episode of a job
 * joins that job's plan.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import type { NewEpisode, PlanGraphPayload } from '../../src/domain/records';
import { structureKey } from '../../src/domain/structure';
import { createEpisodeStore } from '../../src/store/episodes';
import { createRecordStore } from '../../src/store/records';
import { episode } from './episodes';
import { createTestContext, uid, type TestContext } from './harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const pass = () => ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50 }));
const store = (episodes: NewEpisode[]) => createEpisodeStore(ctx.db).insertMany(episodes);

/** A chat-log episode: the task in a user turn, then three calls of generic tools to the job's own endpoint. */
function chatEpisode(tools: string, task: string, value: string): NewEpisode {
  const endpoint = /refund/i.test(task) ? 'refunds' : 'forecast';
  return episode(
    '',
    [
      { id: 'lookup', tool: `${tools}_http`, args: { url: `https://api.example.com/${endpoint}?q=${encodeURIComponent(value)}` } },
      { id: 'act', tool: `${tools}_http`, args: { url: `https://api.example.com/${endpoint}/latest`, body: { key: value } }, depends_on: ['lookup'] },
      { id: 'report', tool: `${tools}_bash`, args: { cmd: `echo done for ${value}` }, depends_on: ['act'] },
    ],
    { kinds: ['user_message', 'tool_call'], summaries: [task] },
  );
}

/** The active plans the episodes were consolidated into, by id. */
async function plansOf(episodeIds: string[]) {
  const found = await ctx.db.execute<{ id: string; episodes: number }>(sql`
    SELECT c.record_id AS id, count(*)::int AS episodes FROM consolidated_sources c
     WHERE c.kind = 'plan' AND c.episode_id = ANY(${sql.param(episodeIds)}::uuid[]) GROUP BY c.record_id`);
  return Promise.all(
    found.rows.map(async (row) => ({ episodes: row.episodes, payload: (await createRecordStore(ctx.db).get(row.id))!.payload as PlanGraphPayload })),
  );
}

describe('one plan per job', () => {
  it('learns two jobs done through the same tools as two plans named after their tasks, and links a later twin to its job', async () => {
    const tools = uid('generic');
    const ids = await store([
      chatEpisode(tools, "What's the weather in Paris?", 'Paris'),
      chatEpisode(tools, 'Refund order 8812 please, it arrived broken', '8812'),
      chatEpisode(tools, 'weather for Berlin', 'Berlin'),
      chatEpisode(tools, 'Please refund order 4410', '4410'),
    ]);
    await pass();
    const plans = (await plansOf(ids)).sort((a, b) => a.payload.intent.localeCompare(b.payload.intent));
    // Named from the task of whichever twin came first in the page.
    expect(plans.map((p) => [p.payload.intent, p.episodes])).toEqual([
      [expect.stringMatching(/^refund_order/), 2],
      ['weather', 2],
    ]);
    const [refund, weather] = plans.map((p) => p.payload);
    expect([...weather!.examples!].sort()).toEqual(["What's the weather in Paris?", 'weather for Berlin']);
    expect(weather!.nodes[0]!.params.url).toMatch(/\{\{inputs\.\w+\}\}$/);
    expect(refund!.examples!.every((e) => /refund/i.test(e))).toBe(true);

    const [rome] = await store([chatEpisode(tools, 'Tell me the weather in Rome', 'Rome')]);
    await pass();
    const [joined, ...others] = await plansOf([rome!]);
    expect(others).toHaveLength(0);
    expect(joined!.payload).toMatchObject({ plan_id: weather!.plan_id, intent: 'weather' });
    expect(joined!.payload.metrics.execution_count).toBe(3);
    const all = await plansOf([...ids, rome!]);
    expect(all.map((p) => p.episodes).sort()).toEqual([2, 3]);
  });

  it('joins a plan learned before jobs had names, under its tools, when the task is its job', async () => {
    const tools = uid('legacy');
    const [first] = await store([chatEpisode(tools, 'Check the weather in Oslo', 'Oslo')]);
    await pass();
    const [learned] = await plansOf([first!]);
    expect(learned!.payload.intent).toBe('check_weather');
    // As an earlier version stored it: named after its tools, without a shape key.
    const legacyName = `${tools}_http_${tools}_bash`;
    await ctx.db.execute(sql`
      UPDATE memory_records SET label = ${legacyName}, shape_key = NULL,
             payload = jsonb_set(payload, '{intent}', to_jsonb(${legacyName}::text)),
             structure_key = ${structureKey({ ...learned!.payload, intent: legacyName })}
       WHERE type = 'plan_graph' AND status = 'active' AND payload->>'plan_id' = ${learned!.payload.plan_id}`);

    const [twin, other] = await store([chatEpisode(tools, 'weather in Lima?', 'Lima'), chatEpisode(tools, 'Refund order 5150', '5150')]);
    await pass();
    const [joined] = await plansOf([twin!]);
    expect(joined!.payload).toMatchObject({ plan_id: learned!.payload.plan_id, intent: legacyName, metrics: { execution_count: 2 } });
    const [apart] = await plansOf([other!]);
    expect(apart!.payload).toMatchObject({ intent: 'refund_order' });
    expect(apart!.payload.plan_id).not.toBe(learned!.payload.plan_id);

    // Re-learning names it from its oldest task again, its twin folded in (the city an input).
    await ctx.withWorker(() => runConsolidationOnce(ctx.client, ctx.config, { pageSize: 50, regeneralize: true }));
    const [relearned] = await plansOf([first!, twin!]);
    expect(relearned).toMatchObject({ episodes: 2, payload: { plan_id: learned!.payload.plan_id, intent: 'check_weather', version: '2' } });
    expect(relearned!.payload.nodes[0]!.params.url).toMatch(/\?q=\{\{inputs\.\w+\}\}$/);
    expect([...relearned!.payload.examples!].sort()).toEqual(['Check the weather in Oslo', 'weather in Lima?']);
  });
});
