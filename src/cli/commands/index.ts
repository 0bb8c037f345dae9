import type { Command } from 'commander';
import { registerDevCommands } from './dev';

/** Registers every verb; one line per command file. */
export function registerCommands(program: Command): void {
  registerDevCommands(program);
}
