/**
 * `plangraph history export`: a run's history as the JSON `temporal workflow show --output json`
 * writes, for `plangraph replay --file`, bug reports and committed test histories.
 */
import type { Command } from 'commander';
import { formatHistoryJson, writeHistoryFile } from '../../replay/history-file';
import { fetchRunHistory } from '../../replay/run-histories';
import { connectTemporal } from '../../temporal/connection';
import { configFromEnv } from '../runtime';
import { idArgument } from '../flags';

export function registerHistoryCommands(program: Command): void {
  const history = program.command('history').description('Workflow histories of runs');
  history
    .command('export')
    .description('Write a run’s history as JSON (the shape of `temporal workflow show --output json`)')
    .argument('<workflow_id>', 'the run’s workflow id', idArgument('<workflow_id>'))
    .option('--run-id <id>', 'a specific run of the workflow id (default: the latest)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (workflowId: string, options: { runId?: string; out?: string }) => {
      const temporal = await connectTemporal(configFromEnv());
      try {
        const run = await fetchRunHistory(temporal.client, workflowId, options.runId);
        if (options.out === undefined) {
          process.stdout.write(formatHistoryJson(run.history));
          return;
        }
        await writeHistoryFile(options.out, run.history);
        console.error(`wrote ${run.history.events?.length ?? 0} events of ${workflowId} (${run.runId}) to ${options.out}`);
      } finally {
        await temporal.close();
      }
    });
}
