/**
 * `plangraph replay`: replays run histories against the current workflow code (or another
 * workflows module) and reports `replay ok (N events)` or the nondeterminism and its event.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DomainError } from '../../domain/errors';
import { readHistoryFile } from '../../replay/history-file';
import { CURRENT_WORKFLOWS, formatReplayOutcome, installQuietReplayRuntime, replayHistories, type ReplayTarget, type WorkflowSource } from '../../replay/replay';
import { closedRunHistories, fetchRunHistory } from '../../replay/run-histories';
import { connectTemporal } from '../../temporal/connection';
import { idArgument } from '../flags';
import { configFromEnv } from '../runtime';

interface ReplayOptions {
  runId?: string;
  file?: string;
  all?: boolean;
  query?: string;
  workflows?: string;
}

function sourceFor(options: ReplayOptions): WorkflowSource {
  return options.workflows ? { workflowsPath: resolve(options.workflows) } : CURRENT_WORKFLOWS;
}

/** Replays the targets; prints one report per run (prefixed with its ids when there are several). Returns the failure count. */
async function replayAndReport(targets: AsyncIterable<ReplayTarget> | Iterable<ReplayTarget>, source: WorkflowSource, many: boolean): Promise<{ total: number; failed: number }> {
  let total = 0;
  let failed = 0;
  for await (const outcome of replayHistories(targets, source)) {
    total += 1;
    if (!outcome.ok) failed += 1;
    const report = formatReplayOutcome(outcome);
    const line = many ? `${outcome.workflowId} (${outcome.runId}): ${report}` : report;
    (outcome.ok ? console.log : console.error)(line);
  }
  return { total, failed };
}

async function runReplay(workflowId: string | undefined, options: ReplayOptions): Promise<void> {
  const modes = [workflowId !== undefined, options.file !== undefined, options.all === true].filter(Boolean).length;
  if (modes !== 1) throw new DomainError('bad_request', 'give exactly one of <workflow_id>, --file FILE.json or --all [--query "…"]');
  if (options.query !== undefined && !options.all) throw new DomainError('bad_request', '--query goes with --all');
  if (options.runId !== undefined && workflowId === undefined) throw new DomainError('bad_request', '--run-id goes with <workflow_id>');
  installQuietReplayRuntime();
  const source = sourceFor(options);

  if (options.file !== undefined) {
    const { failed } = await replayAndReport([{ history: await readHistoryFile(options.file) }], source, false);
    if (failed > 0) process.exitCode = 1;
    return;
  }
  const temporal = await connectTemporal(configFromEnv());
  try {
    if (workflowId !== undefined) {
      const { failed } = await replayAndReport([await fetchRunHistory(temporal.client, workflowId, options.runId)], source, false);
      if (failed > 0) process.exitCode = 1;
      return;
    }
    const { total, failed } = await replayAndReport(closedRunHistories(temporal.client, options.query), source, true);
    if (total === 0) throw new DomainError('not_found', `no closed runs match ${options.query ? `the query ${options.query}` : 'in this namespace'}`);
    console.log(`replayed ${total} run${total === 1 ? '' : 's'}: ${total - failed} ok, ${failed} failed`);
    if (failed > 0) process.exitCode = 1;
  } finally {
    await temporal.close();
  }
}

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('Replay run histories against the current workflow code; exits non-zero on nondeterminism')
    .argument('[workflow_id]', 'replay this run, fetched from Temporal', idArgument('[workflow_id]'))
    .option('--run-id <id>', 'a specific run of the workflow id (default: the latest)')
    .option('--file <path>', 'replay an exported history (the JSON of `temporal workflow show --output json`)')
    .option('--all', 'replay every closed run (narrowed by --query)')
    .option('--query <query>', `visibility query for --all, e.g. "PlanId='…'"`)
    .option('--workflows <path>', 'replay against this workflows module instead (e.g. a changed copy, before deploying it)')
    .addHelpText('after', '\nExamples:\n  plangraph replay plan-triage-…\n  plangraph replay --file run.json\n  plangraph replay --all --query "PlanId=\'…\'"')
    .action(runReplay);
}
