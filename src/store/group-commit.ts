/**
 * Group commit: calls made while a statement is in flight wait for it, then go to Postgres
 * together as one statement. An idle store sends each call at once (no added latency); a busy one
 * sends one statement per round trip instead of one per call, which is what a burst of runs
 * opening and closing their rows costs in the client, in Postgres and in commits.
 */
export interface GroupCommitOptions {
  /** Most calls one statement takes; the rest wait for the next. */
  maxBatch?: number;
}

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

const DEFAULT_MAX_BATCH = 500;

/**
 * Wraps `write(items)`, which must return one result per item in order, as a function of one
 * item. A batch that fails is written again one item at a time, so a call fails only for its own
 * item's sake (and callers' retries see the same errors as without batching).
 */
export function groupCommit<T, R>(write: (items: T[]) => Promise<R[]>, options: GroupCommitOptions = {}): (item: T) => Promise<R> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  let queue: Pending<T, R>[] = [];
  let writing = false;

  const writeOneByOne = (batch: Pending<T, R>[]) =>
    Promise.all(batch.map((p) => write([p.item]).then(([result]) => p.resolve(result as R), p.reject)));

  const drain = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      try {
        const results = await write(batch.map((p) => p.item));
        batch.forEach((p, i) => p.resolve(results[i] as R));
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        else await writeOneByOne(batch);
      }
    }
    writing = false;
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}
