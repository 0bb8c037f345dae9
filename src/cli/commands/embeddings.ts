/** `plangraph embeddings rebuild`: re-embeds stored records with the configured embedder. */
import type { Command } from 'commander';
import { createEmbedder } from '../../embeddings/embedder';
import { DomainError } from '../../domain/errors';
import { reembedRecords } from '../../store/reembed';
import { configFromEnv } from '../runtime';
import { withDb } from './retrieve';

export function registerEmbeddingsCommands(program: Command): void {
  const embeddings = program.command('embeddings').description('Manage stored embeddings');
  embeddings
    .command('rebuild')
    .description('Re-embed records whose vectors another embedder made (after changing EMBEDDER), or all with --all')
    .option('--all', 're-embed every record, also those the current embedder made')
    .action(async (options: { all?: boolean }) => {
      const config = configFromEnv();
      const embedder = createEmbedder(config);
      if (!embedder) throw new DomainError('bad_request', 'EMBEDDER=none: there is no embedder to rebuild with');
      const count = await withDb(config, (db) => reembedRecords(db, embedder, { all: options.all, onProgress: (n) => process.stderr.write(`\r${n} re-embedded`) }));
      console.log(`${count ? '\n' : ''}${count} record(s) re-embedded with ${embedder.name}`);
    });
}
