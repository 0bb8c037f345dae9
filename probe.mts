import { createDb, createScratchDatabase } from './src/db/client';
import { createSemanticEmbedder } from './src/embeddings/semantic-embedder';
import { createRetriever, isSelectable } from './src/retrieval/retrieve';
import { createRecordStore } from './src/store/records';
import { LABELLED_PLANS, labelledPayload } from './bench/selection/labelled-set';
import { OTHER_ACTION_TASKS } from './bench/selection/other-actions';
const database = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'probe');
const db = createDb(database.url, 2);
const embedder = createSemanticEmbedder();
const records = createRecordStore(db, embedder);
for (const [i, plan] of LABELLED_PLANS.entries()) await records.create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.5, tags: plan.tags, payload: labelledPayload(plan, i) });
const r = createRetriever({ db, embedder });
const trust = { max_sensitivity: 'high' as const, authenticated: true };
for (const t of OTHER_ACTION_TASKS) {
  const { candidates, selection } = await r.retrieve({ task_descriptor: t.text, trust });
  const top = candidates.filter((c) => isSelectable(c, trust))[0]!;
  console.log(selection.needs_more ? '  ask' : 'RUN  ', selection.confidence.toFixed(3), t.text, '→', (top.record as any).payload.intent, selection.action_conflict ? JSON.stringify(selection.action_conflict) : '');
}
await db.$client.end(); await database.drop();
