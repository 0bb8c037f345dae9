/**
 * `plangraph episodes ingest FILE.jsonl`: bulk episode ingestion with a progress line on stderr
 * and every rejected line reported with its number and reason.
 */
import { open } from 'node:fs/promises';
import type { Command } from 'commander';
import { ingestEpisodes, DEFAULT_INGEST_BATCH, type IngestProgress, type RejectedLine } from '../../consolidation/ingest-episodes';
import { createDb } from '../../db/client';
import { createEmbedder } from '../../embeddings/embedder';
import { createEpisodeStore } from '../../store/episodes';
import { integerFlag, UsageError } from '../flags';
import { configFromEnv, migrateOrFail } from '../runtime';

/** One progress line: lines read, stored, already stored, rejected, and the storing rate. */
export function formatProgress(p: IngestProgress): string {
  return `ingest: ${p.lines} lines, ${p.stored} stored, ${p.existing} already stored, ${p.rejected} rejected, ${Math.round(p.rate)} episodes/s`;
}

export function formatRejected(r: RejectedLine): string {
  return `line ${r.line}: ${r.reason}`;
}

/** The file's stream, or a one-line error naming it before anything else starts. */
async function openFile(file: string) {
  const handle = await open(file).catch((err: Error) => {
    throw new UsageError(`cannot read ${file}: ${err.message}`);
  });
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw new UsageError(`cannot read ${file}: it is a directory, not a JSON Lines file`);
  }
  return handle.createReadStream();
}

export function registerEpisodeCommands(program: Command): void {
  const episodes = program.command('episodes').description('Store episodes (immutable records of what an agent did)');
  episodes
    .command('ingest')
    .description('Store the episodes of a JSON Lines file (one episode per line); exits 1 when any line was rejected')
    .argument('<file>', 'a .jsonl file, or - for standard input')
    .option('--batch-size <n>', 'episodes per INSERT', integerFlag('--batch-size', 1), DEFAULT_INGEST_BATCH)
    .option('--dedupe', 'store each episode once: a line without an idempotency_key is keyed by its content, so ingesting a file again stores nothing twice')
    .action(async (file: string, options: { batchSize: number; dedupe?: boolean }) => {
      const config = configFromEnv();
      const input = file === '-' ? process.stdin : await openFile(file);
      await migrateOrFail(config);
      const db = createDb(config.DATABASE_URL);
      const store = createEpisodeStore(db, createEmbedder(config));
      // A terminal gets one line rewritten in place; a log gets a line per batch.
      const live = process.stderr.isTTY;
      try {
        const report = await ingestEpisodes(input, store, {
          batchSize: options.batchSize,
          keyByContent: options.dedupe === true,
          onProgress: (p) => process.stderr.write(live ? `\r${formatProgress(p)}` : `${formatProgress(p)}\n`),
          onRejected: (r) => process.stderr.write(`${live ? '\r\x1b[K' : ''}${formatRejected(r)}\n`),
        });
        if (live) process.stderr.write('\n');
        console.log(`stored ${report.stored} episodes, ${report.existing} already stored, rejected ${report.rejected} lines (${Math.round(report.rate)} episodes/s)`);
        if (report.rejected > 0) process.exitCode = 1;
      } finally {
        await db.$client.end();
      }
    });
}
