/**
 * History files: the JSON `temporal workflow show --output json` writes (proto3 JSON of a
 * `temporal.api.history.v1.History`), read and written in exactly that shape.
 */
import { readFile, writeFile } from 'node:fs/promises';
// protobufjs 8 is a direct dependency so that these SDK helpers and @temporalio/proto share one copy.
import { historyFromJSON, historyToJSON, type History } from '@temporalio/common/lib/proto-utils.js';
import { DomainError } from '../domain/errors';

export type { History };

/** Parses history JSON (a string or an already parsed value); `source` names it in errors. */
export function parseHistoryJson(json: string | unknown, source: string): History {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (err) {
      throw new DomainError('bad_request', `${source} is not JSON: ${(err as Error).message}`, { source });
    }
  }
  const events = (value as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new DomainError('bad_request', `${source} is not a workflow history: expected {"events": [...]} with at least one event`, { source });
  }
  try {
    return historyFromJSON(value);
  } catch (err) {
    throw new DomainError('bad_request', `${source} is not a valid workflow history: ${(err as Error).message}`, { source });
  }
}

/** Reads an exported history file. */
export async function readHistoryFile(path: string): Promise<History> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new DomainError('not_found', `cannot read history file ${path}: ${(err as Error).message}`, { path });
  }
  return parseHistoryJson(text, path);
}

/** The history as the Temporal CLI prints it: indented proto3 JSON with a trailing newline. */
export function formatHistoryJson(history: History): string {
  return `${historyToJSON(history)}\n`;
}

/** Writes a history file in the Temporal CLI's JSON shape. */
export async function writeHistoryFile(path: string, history: History): Promise<void> {
  await writeFile(path, formatHistoryJson(history));
}

/** The workflow id recorded in the start event (servers since 1.25 write it), if any. */
export function historyWorkflowId(history: History): string | undefined {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowId ?? undefined;
}
