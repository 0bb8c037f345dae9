/**
 * History files: the JSON `temporal workflow show --output json` writes (proto3 JSON of a
 * `temporal.api.history.v1.History`), read and written in exactly that shape.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { History } from '@temporalio/common/lib/proto-utils';
import proto from '@temporalio/proto';
import { DomainError } from '../errors';

export type { History };

/*
 * Why not @temporalio/common's historyFromJSON/historyToJSON: they check `instanceof Type`
 * against their own protobufjs copy, and with this lockfile npm installs separate copies under
 * @temporalio/common and @temporalio/proto (protobufjs 7 for @grpc/proto-loader holds the top
 * level), so every call throws "type must be a Type". Using the protojson of the copy that
 * built @temporalio/proto's types works in either layout. Once protobufjs 8 is deduplicated
 * (a direct "protobufjs": "^8" dependency does it) the SDK functions can replace these lines.
 */
const protojson = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'))('protobufjs/ext/protojson') as {
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
  toJson(type: unknown, message: unknown): unknown;
};
const HistoryType = proto.temporal.api.history.v1.History;

function historyFromJSON(json: unknown): History {
  return protojson.fromJson(HistoryType, json, { ignoreUnknownFields: true }) as History;
}

function historyToJSON(history: History): string {
  return JSON.stringify(protojson.toJson(HistoryType, HistoryType.fromObject(history)), null, 2);
}

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
