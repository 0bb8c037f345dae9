/**
 * `plangraph run --plan FILE.json | --plan-id ID [--input k=v …] [--wait]`: starts a plan run
 * and, with --wait, prints each node's state changes until the run ends.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { runUiUrl } from '../../intents/run-view';
import { followRun } from '../../runs/follow-run';
import { runPlan } from '../../runs/run-plan';
import { runTask } from '../../intents/run-task';
import { createServices } from '../../services';
import { inexactIntegerProblem, prototypeKeyProblem } from '../../domain/json-limits';
import { DomainError } from '../../domain/errors';
import { UsageError } from '../flags';
import { configFromEnv } from '../runtime';
import { formatNodeChange } from './runs';

/** Parses one `k=v`: the value as JSON when it is valid JSON (42, true, {"a":1}), else as text. */
export function parseInput(pair: string, into: Record<string, unknown> = {}): Record<string, unknown> {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`--input expects key=value, got "${pair}"`);
  // Refused as the API refuses it: the run would otherwise start with the key silently gone.
  const keyProblem = prototypeKeyProblem({ path: [pair.slice(0, eq)] });
  if (keyProblem) throw new UsageError(`--input ${pair}: inputs.${pair.slice(0, eq)} ${keyProblem}`);
  // Keeping the last of two values would run with one the caller may not have meant.
  if (Object.hasOwn(into, pair.slice(0, eq))) throw new UsageError(`--input ${pair}: ${pair.slice(0, eq)} is given twice`);
  const raw = pair.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  const inexact = value === raw ? undefined : inexactIntegerProblem(raw);
  if (inexact) throw new UsageError(`--input ${pair}: the value ${inexact} (--input '${pair.slice(0, eq)}="${raw}"')`);
  return { ...into, [pair.slice(0, eq)]: value };
}

/** A word the shell passes as it is, or single-quoted. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** `--input` flags that parseInput reads back as `inputs` (text that would parse as JSON is sent as a JSON string). */
export function inputFlags(inputs: Record<string, unknown>): string {
  const asText = (value: unknown) => {
    if (typeof value !== 'string') return JSON.stringify(value);
    try {
      JSON.parse(value);
      return JSON.stringify(value);
    } catch {
      return value;
    }
  };
  return Object.entries(inputs).map(([key, value]) => `--input ${shellWord(`${key}=${asText(value)}`)}`).join(' ');
}

/** A task's missing inputs the API would suggest, as the command line that sends them. */
function withSuggestedFlags(err: unknown, task: string, given: Record<string, unknown>): unknown {
  if (!(err instanceof DomainError) || err.code !== 'invalid_inputs') return err;
  const suggested = err.details.suggested_inputs as Record<string, unknown> | undefined;
  if (!suggested) return err;
  const missing = (err.details.missing_inputs as string[] | undefined) ?? [];
  // No placeholder in the command itself: run as printed, it would send the placeholder as a value.
  const also = missing.length > 0 ? `, adding ${missing.map((name) => `--input ${name}=…`).join(' ')}` : '';
  return new DomainError(err.code, `${err.message}\nrun again with${also}: plangraph run --task ${shellWord(task)} ${inputFlags({ ...given, ...suggested })}`, err.details);
}

async function readPlanFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --plan ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--plan ${path} is not JSON: ${(err as Error).message}`);
  }
}

interface RunOptions {
  plan?: string;
  planId?: string;
  task?: string;
  input: Record<string, unknown>;
  wait?: boolean;
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run a plan graph (from a JSON file, stored first, or a stored plan id)')
    .option('--plan <file>', 'a plan graph payload as JSON')
    .option('--plan-id <id>', 'the record id of a stored plan')
    .option('--task <descriptor>', 'a task: run the stored plan retrieval picks for it (as POST /v1/intents)')
    .option('--input <key=value>', 'a run input (JSON when it parses, else text); repeatable', parseInput, {})
    .option('--wait', 'follow the run, printing node state changes, until it ends')
    .action(async (options: RunOptions) => {
      if ([options.plan, options.planId, options.task].filter(Boolean).length !== 1) throw new UsageError('give exactly one of --plan FILE.json, --plan-id ID or --task "…"');
      const plan = options.plan ? { payload: await readPlanFile(options.plan) } : { id: options.planId! };
      const services = await createServices(configFromEnv());
      try {
        const started = options.task
          ? await runTask(services, options.task, options.input).catch((err: unknown) => {
              throw withSuggestedFlags(err, options.task!, options.input);
            })
          : await runPlan(services, { plan, inputs: options.input, actor: 'cli' });
        const { record, stored, handle } = started;
        const intent = record.payload.kind === 'plan_graph' ? record.payload.intent : '';
        const { runId } = await handle.describe();
        console.log(`plan ${record.id}${stored ? ' (stored now)' : ''}: ${intent}`);
        console.log(`run  ${handle.workflowId} (${runId})`);
        console.log(`ui   ${runUiUrl(services.config, handle.workflowId, runId)}`);
        if ('supersededBy' in started && started.supersededBy) {
          console.log(`note this plan was ${record.status}; the plan replacing it is ${started.supersededBy} (run --plan-id ${started.supersededBy})`);
        }
        if (!options.wait) return;
        const since = Date.now();
        const status = await followRun(handle, (node) => {
          const at = `+${((Date.now() - since) / 1000).toFixed(1)}s`.padStart(7);
          console.log(`${at}${formatNodeChange({ id: node.id, op: node.op, state: node.state, attempts: node.attempts, error: node.error?.message ?? node.reason })}`);
        });
        console.log(`run ${status.state}${status.latency_ms !== undefined ? ` in ${status.latency_ms} ms` : ''}${status.error ? ` — ${status.error.type}: ${status.error.message}` : ''}`);
        if (status.state !== 'succeeded') process.exitCode = 1;
      } finally {
        await services.close();
      }
    });
}
