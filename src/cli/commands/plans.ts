/**
 * `plangraph plans list | show ID | diagram ID`: read stored plans from Postgres under the trust
 * the flags describe (public and unauthenticated by default, see ./retrieve.ts).
 */
import type { Command } from 'commander';
import { planToMermaid } from '../../domain/plan-diagram';
import { DomainError } from '../../domain/errors';
import { createPlanReader } from '../../retrieval/plan-reader';
import { integerFlag } from '../flags';
import { configFromEnv } from '../runtime';
import { trustFromFlags, withDb, withTrustFlags, type TrustFlags } from './retrieve';

export function registerPlansCommands(program: Command): void {
  const plans = program.command('plans').description('List, show and draw stored plan graphs');

  withTrustFlags(plans.command('list').description('Plans, newest first'))
    .option('--intent <intent>', 'only plans with this intent')
    .option('--status <status>', 'active, superseded, retracted or merged')
    .option('--limit <n>', 'page size', integerFlag('--limit', 1, 200), 50)
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option('--json', 'print JSON')
    .action(async (options: TrustFlags & { intent?: string; status?: string; limit: number; cursor?: string; json?: boolean }) => {
      const config = configFromEnv();
      const query = { intent: options.intent, status: options.status as never, limit: options.limit, cursor: options.cursor };
      const page = await withDb(config, (db) => createPlanReader(db).list(query, trustFromFlags(options)));
      if (options.json) return console.log(JSON.stringify(page, null, 2));
      for (const { record, redacted } of page.items) {
        const what = redacted || !('payload' in record) || record.payload.kind !== 'plan_graph' ? '[redacted]' : `${record.payload.intent} (${record.payload.nodes.length} nodes)`;
        const status = 'status' in record ? `${record.status} r${record.revision}` : '';
        console.log(`${record.id}  ${record.sensitivity.padEnd(6)}  ${status.padEnd(14)}  ${what}`);
      }
      if (page.next_cursor) console.log(`more: --cursor ${page.next_cursor}`);
    });

  withTrustFlags(plans.command('show <id>').description('One plan as JSON, with live metrics and revision')).action(async (id: string, options: TrustFlags) => {
    const config = configFromEnv();
    const plan = await withDb(config, (db) => createPlanReader(db).get(id, trustFromFlags(options)));
    console.log(JSON.stringify(plan, null, 2));
  });

  withTrustFlags(plans.command('diagram <id>').description('The plan as a Mermaid flowchart')).action(async (id: string, options: TrustFlags) => {
    const config = configFromEnv();
    const plan = await withDb(config, (db) => createPlanReader(db).get(id, trustFromFlags(options)));
    if (plan.redacted || plan.record.payload.kind !== 'plan_graph') {
      throw new DomainError('forbidden', `plan ${id} is redacted or not a plan graph at this clearance`);
    }
    process.stdout.write(planToMermaid(plan.record.payload));
  });
}
