/**
 * `plangraph keys create`: issue an API key for a principal. The key is printed once, to stdout
 * alone (so it can be captured), and only its hash is stored.
 */
import { Option, type Command } from 'commander';
import { createApiKeyStore } from '../../store/api-keys';
import { createDb } from '../../db/client';
import { SENSITIVITIES, type Sensitivity } from '../../domain/records';
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
      const config = configFromEnv();
      await migrateOrFail(config);
      const db = createDb(config.DATABASE_URL);
      try {
        const { key } = await createApiKeyStore(db).create(options.principal, options.maxSensitivity, options.scope);
        console.error(
          `API key for "${options.principal}" (max_sensitivity ${options.maxSensitivity}, scopes ${options.scope?.join(', ') ?? 'any'}); it is shown only now:`,
        );
        console.log(key);
      } finally {
        await db.$client.end();
      }
    });
}
