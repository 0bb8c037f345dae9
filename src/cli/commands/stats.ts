/** `plangraph stats`: plan reuse frequency and counts, as in `GET /v1/stats`. */
import type { Command } from 'commander';
import { createDb } from '../../db/client';
import { createStatsStore, type Stats } from '../../store/stats';
import { configFromEnv } from '../runtime';

const line = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

/** The stats as a few readable lines. */
export function formatStats(stats: Stats): string {
  const c = stats.consolidation;
  return [
    `plan_reuse_frequency  ${stats.plan_reuse_frequency.toFixed(3)} (over ${stats.active_plans} active plans)`,
    `records               ${line(stats.records)}`,
    `plans by status       ${line(stats.plans_by_status)}`,
    `runs                  ${line(stats.runs)}`,
    `consolidation         ${c.passes} passes: scanned ${c.scanned}, eligible ${c.eligible}, created ${c.created}, skipped ${c.skipped}; competences created ${c.competences_created}, reinforced ${c.competences_reinforced}`,
  ].join('\n');
}

export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description('Plan reuse frequency and counts of records, runs and consolidation passes')
    .option('--json', 'print the JSON of GET /v1/stats')
    .action(async (options: { json?: boolean }) => {
      const db = createDb(configFromEnv().DATABASE_URL);
      try {
        const stats = await createStatsStore(db).snapshot();
        console.log(options.json ? JSON.stringify(stats, null, 2) : formatStats(stats));
      } finally {
        await db.$client.end();
      }
    });
}
