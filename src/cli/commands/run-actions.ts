/**
 * `plangraph runs cancel RUN`, `plangraph runs approve|reject RUN NODE [--comment …]` and
 * `plangraph runs resume RUN`: the same library calls as POST /v1/runs/:id/cancel,
 * POST /v1/runs/:id/approvals/:node and POST /v1/runs/:id/resume, acting as the local operator
 * (a decision records the operator's login name).
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { effectiveTrust, LOCAL_OPERATOR, type Principal } from '../../domain/principal';
import { createIntentComponents } from '../../intents/wiring';
import { createApprover } from '../../runs/approve-run';
import { createResumer } from '../../runs/resume-run';
import { createPendingApprovals } from '../../runs/pending-approvals';
import { createRunLister } from '../../store/run-list';
import { idArgument, integerFlag } from '../flags';
import { withServices } from '../runtime';

/** The terminal's operator, named after its login so an approval says who gave it. */
function operator(): Principal {
  let login = 'unknown';
  try {
    login = userInfo().username;
  } catch {
    // No passwd entry (some containers): the decision still names the local operator.
  }
  return { ...LOCAL_OPERATOR, name: `${LOCAL_OPERATOR.name}:${login}` };
}

/** Registers cancel, waiting, approve, reject and resume under `plangraph runs`. */
export function registerRunActionCommands(runs: Command): void {
  runs
    .command('cancel')
    .description('Cancel a running run: running activities are asked to cancel, every unfinished node becomes cancelled, the run ends cancelled')
    .argument('<workflow_id>', 'the run’s workflow id', idArgument('<workflow_id>'))
    .option('--json', 'print the JSON of POST /v1/runs/:workflow_id/cancel')
    .action(async (workflowId: string, options: { json?: boolean }) =>
      withServices(async (services) => {
        const result = await createIntentComponents(services).viewer.cancel(workflowId, effectiveTrust(operator()));
        console.log(options.json ? JSON.stringify(result, null, 2) : `cancellation requested for ${workflowId} (${result.run_id}); plangraph runs show ${workflowId} follows it`);
      }),
    );

  runs
    .command('waiting')
    .description('Running runs that wait for a person, with each wait’s prompt (the newest --limit running runs are inspected)')
    .option('--limit <n>', 'running runs to inspect (1–200)', integerFlag('--limit', 1, 200), 50)
    .option('--json', 'print the JSON of GET /v1/approvals')
    .action(async (options: { limit: number; json?: boolean }) =>
      withServices(async (services) => {
        const pending = createPendingApprovals({ client: services.temporal.client, lister: createRunLister(services.db) });
        const result = await pending.list(operator(), options.limit);
        if (options.json) return console.log(JSON.stringify(result, null, 2));
        const lines = result.items.flatMap((run) =>
          run.waiting_for.map((w) => `${run.workflow_id}  ${w.node_id}  "${w.prompt}" since ${w.since}${w.timeout_at ? ` until ${w.timeout_at}` : ''}`),
        );
        console.log(lines.length > 0 ? lines.join('\n') : `nothing waits (${result.inspected} running runs inspected)`);
      }),
    );

  for (const decision of ['approve', 'reject'] as const) {
    runs
      .command(decision)
      .description(`${decision === 'approve' ? 'Approve' : 'Reject'} a waiting approval node of a running run ($run: the requires_approval gate)`)
      .argument('<workflow_id>', 'the run’s workflow id', idArgument('<workflow_id>'))
      .argument('<node_id>', 'the approval node, or $run for the run gate', idArgument('<node_id>'))
      .option('--comment <text>', 'recorded with the decision')
      .option('--json', 'print the decision as JSON')
      .action(async (workflowId: string, nodeId: string, options: { comment?: string; json?: boolean }) =>
        withServices(async (services) => {
          const { viewer } = createIntentComponents(services);
          const result = await createApprover({ client: services.temporal.client, viewer }).decide(workflowId, nodeId, { decision, comment: options.comment }, operator());
          console.log(options.json ? JSON.stringify(result, null, 2) : `${result.approved ? 'approved' : 'rejected'} ${nodeId} of ${workflowId} as ${result.by} at ${result.at}`);
        }),
      );
  }

  runs
    .command('resume')
    .description('Start a new run of a failed or cancelled run’s plan revision that reruns only what did not succeed')
    .argument('<workflow_id>', 'the failed run’s workflow id', idArgument('<workflow_id>'))
    .option('--json', 'print the JSON of POST /v1/runs/:workflow_id/resume')
    .action(async (workflowId: string, options: { json?: boolean }) =>
      withServices(async (services) => {
        const { viewer } = createIntentComponents(services);
        const resumer = createResumer({
          client: services.temporal.client,
          config: services.config,
          records: services.records,
          viewer,
          knownOps: new Set(services.registry.keys()),
        });
        const result = await resumer.resume(workflowId, operator());
        console.log(
          options.json
            ? JSON.stringify(result, null, 2)
            : [`resumed ${workflowId} as ${result.workflow_id}`, `  reused    ${result.reused.join(', ') || '(none)'}`, `  rerun     ${result.rerun.join(', ')}`].join('\n'),
        );
      }),
    );
}
