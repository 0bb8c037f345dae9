#!/usr/bin/env node
/**
 * The `plangraph` command line. Each verb lives in its own file under ./commands.
 */
import { Command } from 'commander';
import { ConfigError } from '../config';
import { DomainError } from '../domain/errors';
import { registerCommands } from './commands';

const program = new Command('plangraph')
  .description('Plan-graph memory for AI agents, executed as durable Temporal workflows')
  .showHelpAfterError();
registerCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  // Configuration and domain errors are one line for the user, not a stack trace.
  if (err instanceof ConfigError || err instanceof DomainError || (err instanceof Error && err.name === 'UsageError')) {
    console.error(`plangraph: ${err.message}`);
    if (err instanceof DomainError && Object.keys(err.details).length > 0) console.error(JSON.stringify(err.details, null, 2));
  } else {
    console.error(`plangraph: ${err instanceof Error ? err.message : String(err)}`);
    if (process.env.PLANGRAPH_DEBUG) console.error(err);
  }
  process.exit(1);
});
