/**
 * `plangraph retrieve "task"`: ranked plans for a task with the selection verdict. The CLI talks
 * to Postgres directly, so there is no API key: the trust is what the flags say, public and
 * unauthenticated unless asked otherwise (it is an operator's tool on the operator's database).
 */
import type { Command } from 'commander';
import type { Config } from '../../config';
import { createDb, type Db } from '../../db/client';
import { MEMORY_TYPES, sensitivitySchema, SENSITIVITIES, type MemoryType, type TrustContext } from '../../domain/records';
import { createEmbedder } from '../../embeddings/embedder';
import { DomainError } from '../../domain/errors';
import { createRetriever, type RetrieveResult } from '../../retrieval/retrieve';
import { integerFlag } from '../flags';
import { configFromEnv } from '../runtime';
import { holdReason } from '../../domain/holds';

export interface TrustFlags {
  maxSensitivity: string;
  scope?: string[];
  authenticated?: boolean;
}

/** Adds --max-sensitivity, --scope and --authenticated to a command. */
export function withTrustFlags(command: Command): Command {
  return command
    .option('--max-sensitivity <level>', `highest sensitivity to see (${SENSITIVITIES.join(' < ')}); one level above comes back redacted`, 'public')
    .option('--scope <scope...>', 'scopes to see besides unscoped records (default: any scope)')
    .option('--authenticated', 'act as an authenticated caller (plans with requires_authenticated become selectable)');
}

/** The trust context the flags describe; an unknown level is a one-line error. */
export function trustFromFlags(flags: TrustFlags): TrustContext {
  const level = sensitivitySchema.safeParse(flags.maxSensitivity);
  if (!level.success) throw new DomainError('bad_request', `--max-sensitivity must be one of ${SENSITIVITIES.join(', ')}, not "${flags.maxSensitivity}"`);
  return { max_sensitivity: level.data, authenticated: flags.authenticated ?? false, scopes: flags.scope };
}

/** Runs `fn` with a database handle, closing the pool afterwards. */
export async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(config.DATABASE_URL, 2);
  try {
    return await fn(db);
  } finally {
    await db.$client.end();
  }
}

const f2 = (v: number | undefined) => (v === undefined ? '   -' : v.toFixed(2));

function candidateLabel(c: RetrieveResult['candidates'][number]): string {
  return c.redacted ? '[redacted]' : 'payload' in c.record && c.record.payload.kind === 'plan_graph' ? c.record.payload.intent : c.record.type;
}

/** Why an otherwise confident pick was held back, in words ('' when it was not). */
function heldBack(selection: RetrieveResult['selection']): string {
  const reason = holdReason(selection);
  return reason ? ` (held back: ${reason})` : '';
}

/** The decision in words: what the selector would do with this ranking. */
export function describeDecision(result: RetrieveResult): string {
  const { confidence, needs_more, threshold, mode } = result.selection;
  const how = mode === 'membrane' ? 'membrane confidence (best − second) / best' : 'calibrated confidence, estimated P(top plan is right)';
  const verdict = needs_more ? 'needs more: an intent would answer needs_more with these candidates' : 'auto-run: an intent would run the best selectable candidate without asking';
  return `decision: ${how} ${confidence.toFixed(3)} vs threshold ${threshold} → ${verdict}${heldBack(result.selection)}`;
}

/** The ranking as aligned text lines; with `explain`, every signal behind each score. */
export function formatRetrieval(result: RetrieveResult, explain = false): string {
  const lines = result.candidates.map((c, i) => {
    const s = c.signals;
    const head = `${String(i + 1).padStart(2)}. ${c.score.toFixed(3)}  ${c.record.id}  ${candidateLabel(c)}`;
    if (!explain) return `${head}  (applicability ${s.applicability.toFixed(2)}, success ${s.success_rate.toFixed(2)}, recency ${s.recency.toFixed(2)})`;
    const alias = s.alias === undefined ? '' : `  alias ${f2(s.alias)}`;
    return `${head}\n      lexical ${f2(s.lexical)}  words ${f2(s.alignment)}  dense ${f2(s.cosine)}${alias}  match ${f2(s.applicability)}  success ${f2(s.success_rate)}  recency ${f2(s.recency)}`;
  });
  lines.push(explain ? describeDecision(result) : `selection confidence ${result.selection.confidence.toFixed(3)} (threshold ${result.selection.threshold})${result.selection.needs_more ? ': needs more' : ''}${heldBack(result.selection)}`);
  return lines.join('\n');
}

export function registerRetrieveCommand(program: Command): void {
  withTrustFlags(program.command('retrieve <task>').description('Rank stored plans for a task (trust from the flags: public, unauthenticated by default)'))
    .option('--limit <n>', 'how many candidates', integerFlag('--limit', 1, 100), 10)
    .option('--types <types...>', `memory types (${MEMORY_TYPES.join(', ')})`, ['plan_graph'])
    .option('--json', 'print JSON')
    .option('--explain', 'show each candidate\'s lexical, word-alignment, dense, learned-alias and fused match, success, recency, and the decision')
    .action(async (task: string, options: TrustFlags & { limit: number; types: string[]; json?: boolean; explain?: boolean }) => {
      const config = configFromEnv();
      const trust = trustFromFlags(options);
      const result = await withDb(config, (db) =>
        createRetriever({ db, embedder: createEmbedder(config), threshold: config.SELECTION_THRESHOLD, mode: config.SELECTION_MODE }).retrieve({
          task_descriptor: task,
          trust,
          memory_types: options.types as MemoryType[],
          limit: options.limit,
        }),
      );
      console.log(options.json ? JSON.stringify(result, null, 2) : formatRetrieval(result, options.explain));
    });
}
