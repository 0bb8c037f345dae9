/**
 * `plangraph runs list`: the runs recorded in Postgres, as `GET /v1/runs`; `plangraph runs show
 * ID`: a run's state, per-node status, what it waits for and its result, as in
 * `GET /v1/runs/:id`; `plangraph runs nodes ID`: every node's state, as in
 * `GET /v1/runs/:id/nodes` (cancel, approve, reject and resume: run-actions.ts).
 */
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { createIntentComponents } from '../../intents/wiring';
import { createRunNodeReader, type RunNodeList, type RunNodeListQuery } from '../../intents/run-node';
import { NODE_STATES } from '../../domain/run-state';
import type { RunView } from '../../intents/schemas';
import { effectiveTrust, LOCAL_OPERATOR } from '../../domain/principal';
import { timestamptzSchema } from '../../domain/timestamps';
import { createRunLister, RUN_ROW_STATES, type ListRunsQuery, type RunList } from '../../store/run-list';
import { idArgument, integerFlag, schemaFlag } from '../flags';
import { withServices } from '../runtime';
import { registerRunActionCommands } from './run-actions';

/** A node state change as the progress lines show it. */
export interface NodeChange {
  id: string;
  op: string;
  state: string;
  attempts: number;
  error?: string;
}

/** One progress line for a node state change. */
export function formatNodeChange(change: NodeChange): string {
  const attempts = change.attempts > 1 ? ` (attempt ${change.attempts})` : '';
  return `  ${change.state.padEnd(9)} ${change.id} [${change.op}]${attempts}${change.error ? ` — ${change.error}` : ''}`;
}

/** A run view as readable lines: header, one line per node, the error if any. */
export function formatRunView(view: RunView): string {
  const status = view.result ?? view.status;
  const lines = [
    `run ${view.workflow_id} (${view.run_id})`,
    `  state     ${view.state}${status?.latency_ms !== undefined ? ` in ${status.latency_ms} ms` : ''}`,
    `  plan      ${view.plan_id}${status ? ` — ${status.intent} (revision ${status.plan_revision})` : ''}`,
    `  ui        ${view.ui_url}`,
  ];
  if (view.status_error) lines.push(`  status    unavailable: ${view.status_error}`);
  const partitioned = status?.partitioned;
  if (partitioned) {
    const counts = Object.entries(partitioned.counts).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${state}`).join(', ');
    lines.push(`  nodes     ${partitioned.node_count} in ${partitioned.partitions} partitions: ${counts}`);
    lines.push(`            below: partition ${partitioned.partition + 1} and earlier failures (every node: plangraph runs nodes ${view.workflow_id})`);
  }
  for (const node of status?.nodes ?? []) {
    const note = node.error?.message ?? node.reason ?? (node.reused_from ? `reused from ${node.reused_from}` : node.prompt);
    lines.push(formatNodeChange({ id: node.id, op: node.op, state: node.state, attempts: node.attempts, error: note }));
  }
  for (const wait of status?.waiting_for ?? []) {
    const until = wait.timeout_at ? ` until ${wait.timeout_at}` : '';
    lines.push(`  waits     ${wait.node_id}: "${wait.prompt}" for ${wait.decided_by}${until} (plangraph runs approve|reject ${view.workflow_id} ${wait.node_id})`);
  }
  for (const d of status?.approvals ?? []) lines.push(`  decision  ${d.node_id}: ${d.decision} by ${d.by} at ${d.at}${d.comment ? ` — ${d.comment}` : ''}`);
  const resumedFrom = view.record?.resumed_from ?? status?.resumed_from;
  if (resumedFrom) lines.push(`  resumes   ${resumedFrom}`);
  if (view.error) lines.push(`  error     ${view.error.type}: ${view.error.message}`);
  return lines.join('\n');
}

/** A page of a run's nodes as readable lines. */
export function formatRunNodes(list: RunNodeList): string {
  const last = list.offset + list.nodes.length;
  const lines = [`run ${list.workflow_id}: nodes ${list.nodes.length ? list.offset + 1 : 0}–${last} of ${list.matching}${list.matching !== list.node_count ? ` (of ${list.node_count} in all)` : ''}`];
  for (const node of list.nodes) lines.push(`  ${node.state.padEnd(9)} ${node.node_id} [${node.op}]`);
  if (last < list.matching) lines.push(`  … next page: --offset ${last}`);
  return lines.join('\n');
}

/** A page of runs as readable lines, newest first, with the flag for the next page. */
export function formatRunList(list: RunList): string {
  if (list.items.length === 0) return 'no runs';
  const lines = list.items.map((run) => {
    const took = run.latency_ms !== null ? `${run.latency_ms} ms` : '';
    const error = run.error ? `  ${run.error.type}: ${run.error.message.split('\n')[0]}` : '';
    return `${run.started_at}  ${run.state.padEnd(9)} ${took.padStart(10)}  ${run.workflow_id}  ${run.intent}${error}`;
  });
  if (list.next_cursor) lines.push(`… older runs: --cursor ${list.next_cursor}`);
  return lines.join('\n');
}

export function registerRunsCommands(program: Command): void {
  const runs = program.command('runs').description('List and inspect plan runs, cancel them, decide their approvals, resume failed ones');
  runs
    .command('list')
    .description('The runs recorded in Postgres, newest first (GET /v1/runs)')
    .option('--plan-id <id>', 'only runs of this plan record', schemaFlag('--plan-id', z.uuid()))
    .addOption(new Option('--state <state>', 'only runs in this state').choices(RUN_ROW_STATES))
    .option('--since <instant>', 'runs started at or after this ISO-8601 instant', schemaFlag('--since', timestamptzSchema))
    .option('--before <instant>', 'runs started before this ISO-8601 instant', schemaFlag('--before', timestamptzSchema))
    .option('--limit <n>', 'runs to show (at most 200)', integerFlag('--limit', 1, 200), 50)
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option('--json', 'print the JSON of GET /v1/runs')
    .action(async (options: { planId?: string; state?: ListRunsQuery['state']; since?: string; before?: string; limit: number; cursor?: string; json?: boolean }) =>
      withServices(async (services) => {
        const query = { plan_id: options.planId, state: options.state, since: options.since, before: options.before, limit: options.limit, cursor: options.cursor };
        const list = await createRunLister(services.db).list(query, effectiveTrust(LOCAL_OPERATOR));
        console.log(options.json ? JSON.stringify(list, null, 2) : formatRunList(list));
      }),
    );
  registerRunActionCommands(runs);
  runs
    .command('show')
    .description("A run's state, per-node status and result")
    .argument('<workflow_id>', 'the run’s workflow id', idArgument('<workflow_id>'))
    .option('--json', 'print the JSON of GET /v1/runs/:workflow_id')
    .action(async (workflowId: string, options: { json?: boolean }) =>
      withServices(async (services) => {
        const view = await createIntentComponents(services).viewer.view(workflowId, effectiveTrust(LOCAL_OPERATOR));
        console.log(options.json ? JSON.stringify(view, null, 2) : formatRunView(view));
      }),
    );
  runs
    .command('nodes')
    .description("Every node of a run and its state, in topological order (partitioned runs included)")
    .argument('<workflow_id>', 'the run’s workflow id', idArgument('<workflow_id>'))
    .addOption(new Option('--state <state>', 'only nodes in this state').choices(NODE_STATES))
    .option('--offset <n>', 'nodes to skip', integerFlag('--offset', 0), 0)
    .option('--limit <n>', 'nodes to show (at most 1000)', integerFlag('--limit', 1, 1_000), 100)
    .option('--json', 'print the JSON of GET /v1/runs/:workflow_id/nodes')
    .action(async (workflowId: string, options: { state?: RunNodeListQuery['state']; offset: number; limit: number; json?: boolean }) =>
      withServices(async (services) => {
        const { viewer } = createIntentComponents(services);
        const reader = createRunNodeReader({ client: services.temporal.client, viewer, records: services.records });
        const query = { state: options.state, offset: options.offset, limit: options.limit };
        const list = await reader.list(workflowId, query, effectiveTrust(LOCAL_OPERATOR));
        console.log(options.json ? JSON.stringify(list, null, 2) : formatRunNodes(list));
      }),
    );
}
