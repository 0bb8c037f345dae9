/**
 * `plangraph keys create|list|revoke`: issue an API key for a principal (printed once, to stdout
 * alone so it can be captured; only its hash is stored), list keys, revoke one.
 */
import { Option, type Command } from 'commander';
import { createApiKeyStore } from '../../store/api-keys';
import { createDb } from '../../db/client';
import { SENSITIVITIES, type Sensitivity } from '../../domain/records';
import { z } from 'zod';
import { textProblem } from '../../domain/json-limits';
import { UsageError } from '../flags';
import { configFromEnv, migrateOrFail } from '../runtime';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('Manage API keys (each maps to a principal with a clearance and scopes)');
  keys
    .command('create')
    .description('Create an API key and print it once')
    .requiredOption('--principal <name>', 'who the key acts as (recorded as the actor of its writes)')
    .addOption(new Option('--max-sensitivity <level>', 'highest sensitivity the key may see').choices(SENSITIVITIES).makeOptionMandatory())
    .option('--scope <scope>', 'a scope the key may see (repeatable; none = any scope)', collect)
    .action(async (options: { principal: string; maxSensitivity: Sensitivity; scope?: string[] }) => {
      // The name is the actor of every write the key makes: blank, those writes name no one.
      const problem = options.principal.trim() === '' ? 'is blank' : textProblem(options.principal);
      if (problem) throw new UsageError(`--principal must name who the key acts as: the name ${problem}`);
      await withKeyStore(async (store) => {
        const { key } = await store.create(options.principal, options.maxSensitivity, options.scope);
        console.error(
          `API key for "${options.principal}" (max_sensitivity ${options.maxSensitivity}, scopes ${options.scope?.join(', ') ?? 'any'}); it is shown only now:`,
        );
        console.log(key);
      });
    });
  keys
    .command('list')
    .description('List the keys: id, principal, clearance, scopes, when created and revoked (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withKeyStore(async (store) => {
        const rows = await store.list();
        if (options.json) return console.log(JSON.stringify(rows, null, 2));
        for (const row of rows) {
          const revoked = row.revoked_at ? `revoked ${row.revoked_at.toISOString()}` : 'active';
          console.log(`${row.id}  ${row.principal}  ${row.max_sensitivity}  scopes ${row.scopes?.join(',') || 'any'}  created ${row.created_at.toISOString()}  ${revoked}`);
        }
      });
    });
  keys
    .command('revoke')
    .description('Revoke a key by its id (from `keys list`): every later request with it is a 401')
    .argument('<id>', 'the key id')
    .action(async (id: string) => {
      if (!z.uuid().safeParse(id).success) throw new UsageError(`<id> must be a key id (a UUID shown by \`plangraph keys list\`), got "${id}"`);
      await withKeyStore(async (store) => {
        const revokedAt = await store.revoke(id);
        if (!revokedAt) {
          console.error(`no API key with id ${id}`);
          process.exitCode = 1;
        } else console.error(`API key ${id} revoked at ${revokedAt.toISOString()}`);
      });
    });
}

async function withKeyStore(work: (store: ReturnType<typeof createApiKeyStore>) => Promise<void>): Promise<void> {
  const config = configFromEnv();
  await migrateOrFail(config);
  const db = createDb(config.DATABASE_URL);
  try {
    await work(createApiKeyStore(db));
  } finally {
    await db.$client.end();
  }
}
