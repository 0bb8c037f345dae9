/**
 * Re-embedding stored records after the embedder changed (or the plan document did): every
 * record whose vector another embedder made — or, with `all`, every record — gets a new vector
 * from the current embedder, in keyset-ordered batches, each batch one embed call and one UPDATE.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Payload } from '../domain/records';
import type { Embedder } from '../embeddings/embedder';
import { embeddingText, planEmbeddingText } from './records';

const BATCH = 200;

/** Re-embeds records not made by `embedder` (all of them with `all`); returns how many. */
export async function reembedRecords(db: Db, embedder: Embedder, options: { all?: boolean; onProgress?(done: number): void } = {}): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let done = 0;
  for (;;) {
    const stale = options.all ? sql`TRUE` : sql`embedder IS DISTINCT FROM ${embedder.name}`;
    const page = await db.execute<{ id: string; payload: Payload; aliases: string[] }>(sql`SELECT id, payload, aliases FROM memory_records
      WHERE id > ${after}::uuid AND ${stale} ORDER BY id LIMIT ${BATCH}`);
    if (page.rows.length === 0) return done;
    const texts = page.rows.map((r) => (r.payload.kind === 'plan_graph' ? planEmbeddingText(r.payload, r.aliases) : embeddingText(r.payload)));
    const vectors = await embedder.embed(texts);
    await db.execute(sql`UPDATE memory_records m SET embedding = v.embedding::vector, embedder = ${embedder.name}
      FROM unnest(${sql.param(page.rows.map((r) => r.id))}::uuid[], ${sql.param(vectors.map((v) => `[${v.join(',')}]`))}::text[]) AS v(id, embedding)
      WHERE m.id = v.id`);
    done += page.rows.length;
    options.onProgress?.(done);
    after = page.rows.at(-1)!.id;
  }
}
