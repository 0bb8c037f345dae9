/** The histories committed in test/histories, each with the workflow id it was recorded under. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseHistoryJson } from '../../src/replay/history-file';

export const HISTORIES_DIR = resolve(import.meta.dirname, '../histories');

/** File names, sorted. */
export const historyFiles = () => readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();

/**
 * scripts/record-histories.ts records scenario `x` under workflow id `history-x`; replays must use
 * it, because child workflow ids (map chunks, sub-plans) derive from it. A copy frozen before a
 * change since it was recorded (`x-before-shared-scope.json`, `x-before-combined-patch.json`, `x-before-executor-version.json`,
 * `x-before-outcome-sink.json`, `x-before-lean-wait.json`, `x-before-cancel-safe.json`, `x-before-task-budget.json`,
 * `x-before-local-reserve.json`) keeps
 * the id it was recorded under.
 */
export const recordedId = (file: string) => `history-${file.replace(/(-before-(shared-scope|combined-patch|executor-version|outcome-sink|lean-wait|cancel-safe|task-budget|local-reserve))?\.json$/, '')}`;

export const committedHistories = () =>
  historyFiles().map((file) => ({ file, workflowId: recordedId(file), history: parseHistoryJson(readFileSync(join(HISTORIES_DIR, file), 'utf8'), file) }));
