/** Helpers shared by the executor integration tests: settle a run, read its timings and metrics. */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { statusQuery, type NodeStatus, type RunStatus } from '../../src/domain/run-state';
import { createRecordStore } from '../../src/store/records';

/** The first argument a workflow was started with, as its history stores it. */
export async function startInput(handle: WorkflowHandle): Promise<unknown> {
  const [started] = (await handle.fetchHistory()).events ?? [];
  const payload = started?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload) throw new Error(`workflow ${handle.workflowId} has no start input in its history`);
  return defaultPayloadConverter.fromPayload(payload);
}

/** The patch ids a history's `core_patch` markers record. */
export function patchesOf(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>): string[] {
  return (history.events ?? []).flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    const payloads = marker?.markerName === 'core_patch' ? Object.values(marker.details ?? {}).flatMap((d) => d.payloads ?? []) : [];
    return payloads.map((p) => defaultPayloadConverter.fromPayload<{ id: string }>(p).id);
  });
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** The summaries (the Temporal UI's labels) of a run's history events that `pick` keeps, in order; '' for none. */
export async function summariesOf(handle: WorkflowHandle, pick: (event: HistoryEvent) => boolean): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.filter(pick).map((e) => (e.userMetadata?.summary ? defaultPayloadConverter.fromPayload<string>(e.userMetadata.summary) : ''));
}

/** Waits for a run to end and returns its final status, whether it succeeded or not. */
export async function settle(handle: WorkflowHandle): Promise<{ status: RunStatus; error?: unknown }> {
  try {
    return { status: (await handle.result()) as RunStatus };
  } catch (error) {
    // A closed workflow still answers queries (the worker replays it).
    return { status: await handle.query(statusQuery), error };
  }
}

/** The stable `type` of the first ApplicationFailure in an error's cause chain. */
export function failureType(error: unknown): string | undefined {
  for (let e = error as { type?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if ((e as Error).name === 'ApplicationFailure') return e.type;
  }
  return undefined;
}

export function byId(status: RunStatus): Record<string, NodeStatus> {
  return Object.fromEntries(status.nodes.map((n) => [n.id, n]));
}

export function statesOf(status: RunStatus): Record<string, string> {
  return Object.fromEntries(status.nodes.map((n) => [n.id, n.state]));
}

export interface Interval {
  node: string;
  started: number;
  finished: number;
}

/** The start/finish times the `timed` test op measured inside its activity. */
export function intervals(status: RunStatus): Record<string, Interval> {
  return Object.fromEntries(
    status.nodes.filter((n) => n.op === 'timed' && n.state === 'succeeded').map((n) => [n.id, n.output as Interval]),
  );
}

/** The largest number of intervals running at one instant. */
export function maxOverlap(list: readonly Interval[]): number {
  return Math.max(...list.map((i) => list.filter((j) => j.started <= i.started && i.started < j.finished).length));
}

/** Polls until `check` holds, failing after a deadline (state changes are not events we can await). */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The plan's published metrics and raw counters. */
export async function metricsOf(db: Db, planId: string) {
  const record = await createRecordStore(db).get(planId);
  if (record?.payload.kind !== 'plan_graph') throw new Error(`no plan ${planId}`);
  const counters = await db.execute<{ successes: number; failures: number; latency_samples: number }>(
    sql`SELECT successes, failures, latency_samples FROM plan_stats WHERE plan_id = ${planId}`,
  );
  return { ...record.payload.metrics, counters: counters.rows[0] ?? { successes: 0, failures: 0, latency_samples: 0 } };
}

/** Run rows of a plan, as stored. */
export async function runRows(db: Db, planId: string) {
  const result = await db.execute<{ workflow_id: string; status: string; finished_at: Date | null; latency_ms: number | null }>(
    sql`SELECT workflow_id, status, finished_at, latency_ms FROM plan_runs WHERE plan_id = ${planId}`,
  );
  return result.rows;
}
