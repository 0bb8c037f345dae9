import type { Command } from 'commander';
import { registerConsolidateCommand } from './consolidate';
import { registerDevCommands } from './dev';
import { registerEmbeddingsCommands } from './embeddings';
import { registerEpisodeCommands } from './episodes';
import { registerHistoryCommands } from './history';
import { registerKeyCommands } from './keys';
import { registerMcpCommand } from './mcp';
import { registerPlansCommands } from './plans';
import { registerReplayCommand } from './replay';
import { registerRetrieveCommand } from './retrieve';
import { registerRunCommand } from './run';
import { registerRunsCommands } from './runs';
import { registerStatsCommand } from './stats';

/** Registers every verb; one line per command file. */
export function registerCommands(program: Command): void {
  registerDevCommands(program);
  registerEpisodeCommands(program);
  registerConsolidateCommand(program);
  registerKeyCommands(program);
  registerRunCommand(program);
  registerRunsCommands(program);
  registerStatsCommand(program);
  registerMcpCommand(program);
  registerPlansCommands(program);
  registerRetrieveCommand(program);
  registerEmbeddingsCommands(program);
  registerReplayCommand(program);
  registerHistoryCommands(program);
}
