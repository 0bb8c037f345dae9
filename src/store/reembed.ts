/**
 * Re-embedding stored records after the embedder changed (or the plan document did): every
 * record whose vector another embedder made — or, with `all`, every record — gets a new vector
 * from the current embedder, in keyset-ordered batches, each batch one embed call and one UPDATE.
 */
import { and, asc, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memoryRecords } from '../db/schema';
import type { Payload } from '../domain/records';
import type { Embedder } from '../embeddings/embedder';
import { embeddingText } from './records';

const BATCH = 200;

const isDistinctFrom = (column: typeof memoryRecords.embedder, value: string): SQL => sql`${column} IS DISTINCT FROM ${value}`;

/** Re-embeds records not made by `embedder` (all of them with `all`); returns how many. */
export async function reembedRecords(db: Db, embedder: Embedder, options: { all?: boolean; onProgress?(done: number): void } = {}): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let done = 0;
  for (;;) {
    const stale = options.all ? undefined : isDistinctFrom(memoryRecords.embedder, embedder.name);
    const rows = await db
      .select({ id: memoryRecords.id, payload: memoryRecords.payload })
      .from(memoryRecords)
      .where(and(gt(memoryRecords.id, after), stale))
      .orderBy(asc(memoryRecords.id))
      .limit(BATCH);
    if (rows.length === 0) return done;
    const page = rows.map((r) => ({ ...r, payload: r.payload as Payload }));
    const texts = page.map((r) => embeddingText(r.payload));
    const vectors = await embedder.embed(texts);
    await db.execute(sql`UPDATE memory_records m SET embedding = v.embedding::vector, embedder = ${embedder.name}
      FROM unnest(${sql.param(page.map((r) => r.id))}::uuid[], ${sql.param(vectors.map((v) => `[${v.join(',')}]`))}::text[]) AS v(id, embedding)
      WHERE m.id = v.id`);
    done += page.length;
    options.onProgress?.(done);
    after = page.at(-1)!.id;
  }
}
