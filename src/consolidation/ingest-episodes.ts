/**
 * Bulk episode ingestion from JSON Lines: streamed line by line, validated, inserted in batches.
 * A bad line is reported with its number and reason and stores nothing; good lines are stored.
 */
import { createInterface } from 'node:readline';
import { PassThrough, type Readable } from 'node:stream';
import type { NewEpisode } from '../domain/records';
import { utf8Problem } from '../domain/utf8-bytes';
import { inexactIntegerProblem } from '../domain/json-limits';
import { parseEpisode, type EpisodeProblem, type EpisodeStore } from '../store/episodes';
import { episodeRequestSha256 } from '../store/episode-keys';

export const DEFAULT_INGEST_BATCH = 500;

export interface RejectedLine {
  line: number;
  reason: string;
  problems: EpisodeProblem[];
}

export interface IngestProgress {
  lines: number;
  stored: number;
  /** Lines whose episode was stored before (by an earlier ingest of them, or under their key). */
  existing: number;
  rejected: number;
  elapsed_ms: number;
  /** Stored episodes per second so far. */
  rate: number;
}

export interface IngestReport extends IngestProgress {
  rejected_lines: RejectedLine[];
}

export interface IngestOptions {
  batchSize?: number;
  /**
   * Keys each line without an `idempotency_key` by its content, so that ingesting a file again
   * stores nothing twice. Off by default: identical lines are then separate executions.
   */
  keyByContent?: boolean;
  /** Called after every stored batch and once at the end. */
  onProgress?(progress: IngestProgress): void;
  /** Called for each rejected line as soon as it is read. */
  onRejected?(rejected: RejectedLine): void;
}

/** Checks one JSONL line; undefined for a blank line, which is neither stored nor rejected. */
export function checkLine(text: string, line: number): { episode: NewEpisode } | { rejected: RejectedLine } | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { rejected: { line, reason: `malformed JSON: ${(err as Error).message}`, problems: [] } };
  }
  const inexact = inexactIntegerProblem(text);
  if (inexact) return { rejected: { line, reason: `line ${inexact}`, problems: [] } };
  const parsed = parseEpisode(value);
  if (parsed.ok) return { episode: parsed.episode };
  const reason = parsed.problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  return { rejected: { line, reason, problems: parsed.problems } };
}

/** A line's bytes checked as UTF-8 first: decoding would store a Latin-1 "café" as "caf\ufffd". */
function checkLineBytes(bytes: Buffer, line: number): ReturnType<typeof checkLine> {
  const problem = utf8Problem(bytes);
  if (problem) return { rejected: { line, reason: `line ${problem}`, problems: [] } };
  return checkLine(bytes.toString('utf8'), line);
}

/**
 * The input with each byte read as one character (latin1), so readline splits lines exactly as on
 * text and each line's bytes come back whole; text chunks (a stream of strings) become UTF-8 bytes.
 */
function asByteChars(input: Readable): Readable {
  const bytes = new PassThrough();
  input.on('error', (error) => bytes.destroy(error));
  return input.pipe(bytes).setEncoding('latin1');
}

/** A line's idempotency key: its own, else one derived from its content. */
function withContentKey(episode: NewEpisode): NewEpisode {
  return episode.idempotency_key === undefined ? { ...episode, idempotency_key: `sha256:${episodeRequestSha256(episode)}` } : episode;
}

/** Streams JSONL episodes from `input` into the store in batches; returns what happened. */
export async function ingestEpisodes(
  input: Readable,
  store: Pick<EpisodeStore, 'store'>,
  options: IngestOptions = {},
): Promise<IngestReport> {
  const batchSize = options.batchSize ?? DEFAULT_INGEST_BATCH;
  const started = performance.now();
  const rejectedLines: RejectedLine[] = [];
  let lines = 0;
  let stored = 0;
  let existing = 0;
  let batch: Array<{ episode: NewEpisode; line: number }> = [];
  const progress = (): IngestProgress => {
    const elapsed = performance.now() - started;
    return { lines, stored, existing, rejected: rejectedLines.length, elapsed_ms: elapsed, rate: elapsed > 0 ? (stored * 1000) / elapsed : 0 };
  };
  let reportedLines = -1;
  const report = () => {
    reportedLines = lines;
    options.onProgress?.(progress());
  };
  const reject = (rejected: RejectedLine) => {
    rejectedLines.push(rejected);
    options.onRejected?.(rejected);
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const outcomes = await store.store(batch.map((b) => b.episode));
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'stored') stored += 1;
      else if (outcome.status === 'existing') existing += 1;
      else {
        const reason = `idempotency_key: "${batch[i]!.episode.idempotency_key}" already stored a different episode (${outcome.id})`;
        reject({ line: batch[i]!.line, reason, problems: [{ field: 'idempotency_key', message: reason }] });
      }
    });
    batch = [];
    report();
  };

  for await (const byteChars of createInterface({ input: asByteChars(input), crlfDelay: Infinity })) {
    lines += 1;
    const checked = checkLineBytes(Buffer.from(byteChars, 'latin1'), lines);
    if (!checked) continue;
    if ('rejected' in checked) {
      reject(checked.rejected);
      continue;
    }
    batch.push({ episode: options.keyByContent ? withContentKey(checked.episode) : checked.episode, line: lines });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  // Once more only if lines came after the last report (rejected ones, or none stored at all).
  if (reportedLines !== lines) report();
  return { ...progress(), rejected_lines: rejectedLines };
}
