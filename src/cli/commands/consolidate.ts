/**
 * `plangraph consolidate [--now | --regeneralize | --schedule]`: one pass now (optionally re-learning
 * stored plans), the cron workflow (or Schedule) kept running, or, without a flag, what is scheduled.
 */
import type { Command } from 'commander';
import type { Client } from '@temporalio/client';
import { connectTemporal } from '../../temporal/connection';
import type { ConsolidationResult } from '../../consolidation/result';
import type { ConsolidationProgress } from '../../domain/consolidation-progress';
import { runConsolidationOnce } from '../../consolidation/run-once';
import { describeConsolidationSchedule, ensureConsolidationSchedule } from '../../consolidation/scheduling';
import type { Config } from '../../config';
import { configFromEnv, requireTemporal } from '../runtime';

const STEPS: Record<ConsolidationProgress['step'], string> = {
  episodes: 'reading episodes',
  regeneralize: 're-learning stored plans',
  competences: 'consolidating competences',
  recording: 'recording the pass',
};

/** One progress line of a running pass. */
export function formatPassProgress(p: ConsolidationProgress): string {
  return `consolidate: ${STEPS[p.step]}; ${p.scanned} episodes scanned, ${p.eligible} eligible, ${p.created} plans created, ${p.linked} linked, ${p.revised} revised`;
}

/** A pass's counts on one line. */
export function formatPass(result: ConsolidationResult): string {
  return [
    `scanned ${result.scanned}`,
    `eligible ${result.eligible}`,
    `created ${result.created}`,
    `linked ${result.linked}`,
    `revised ${result.revised}`,
    `skipped ${result.skipped}`,
    `invalid ${result.invalid}`,
    `competences created ${result.competences_created}`,
    `reinforced ${result.competences_reinforced}`,
  ].join(', ');
}

async function withClient<T>(config: Config, fn: (client: Client) => Promise<T>): Promise<T> {
  await requireTemporal(config);
  const temporal = await connectTemporal(config);
  try {
    return await fn(temporal.client);
  } finally {
    await temporal.close();
  }
}

export function registerConsolidateCommand(program: Command): void {
  program
    .command('consolidate')
    .description('Turn episodes into plan graphs and competences: --now runs a pass, --schedule keeps the cron workflow running')
    .option('--now', 'run one pass now and print its counts (needs a running worker)')
    .option('--regeneralize', 'run one pass now that also re-learns stored consolidated plans from their episodes (new revisions)')
    .option('--schedule', 'start the cron workflow (or Schedule, CONSOLIDATION_MODE=schedule) unless it exists')
    .option('--json', 'print JSON')
    .action(async (options: { now?: boolean; regeneralize?: boolean; schedule?: boolean; json?: boolean }) => {
      const config = configFromEnv();
      const print = (value: unknown, text: string) => console.log(options.json ? JSON.stringify(value, null, 2) : text);
      await withClient(config, async (client) => {
        if (options.schedule) {
          const ensured = await ensureConsolidationSchedule(client, config);
          print(ensured, ensured.message);
        }
        if (options.now || options.regeneralize) {
          // On stderr, when it changes: a terminal gets one line rewritten in place, a log a line each.
          const live = process.stderr.isTTY;
          let last = '';
          const onProgress = (progress: ConsolidationProgress) => {
            const line = formatPassProgress(progress);
            if (line !== last) process.stderr.write(live ? `\r\x1b[K${line}` : `${line}\n`);
            last = line;
          };
          const report = await runConsolidationOnce(client, config, { regeneralize: options.regeneralize, onProgress });
          if (live && last) process.stderr.write('\n');
          print(report, `${report.workflow_id}: ${formatPass(report)}`);
        }
        if (!options.now && !options.regeneralize && !options.schedule) {
          const state = await describeConsolidationSchedule(client, config);
          print(state ?? null, state ? `consolidation ${state.mode} "${state.id}" runs on cron "${state.cron}"` : 'consolidation is not scheduled (plangraph consolidate --schedule)');
        }
      });
    });
}
