/**
 * Group commit's batching: an idle writer sends a call at once, calls made meanwhile go together
 * in the next statement, and a failing batch fails only the calls whose own item fails.
 * (The batched run statements themselves are tested against Postgres: executor-metrics.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/store/group-commit';

/** A writer that records each batch and answers when released (or fails on `bad` items). */
function recordingWriter(bad = new Set<number>()) {
  const batches: number[][] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  return {
    batches,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    write: async (items: number[]) => {
      batches.push(items);
      await gate;
      if (items.some((i) => bad.has(i))) throw new Error(`bad item in [${items.join(', ')}]`);
      return items.map((i) => i * 10);
    },
  };
}

describe('groupCommit', () => {
  it('writes a call at once when nothing is in flight', async () => {
    const writer = recordingWriter();
    const call = groupCommit(writer.write);
    expect(await call(1)).toBe(10);
    expect(await call(2)).toBe(20);
    expect(writer.batches).toEqual([[1], [2]]);
  });

  it('writes the calls made during a write together, each getting its own result', async () => {
    const writer = recordingWriter();
    writer.hold();
    const call = groupCommit(writer.write);
    const first = call(1);
    const rest = [call(2), call(3), call(4)];
    writer.release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(writer.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('splits what waits into batches of at most maxBatch', async () => {
    const writer = recordingWriter();
    writer.hold();
    const call = groupCommit(writer.write, { maxBatch: 2 });
    const calls = [1, 2, 3, 4, 5].map((i) => call(i));
    writer.release();
    expect(await Promise.all(calls)).toEqual([10, 20, 30, 40, 50]);
    expect(writer.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('retries a failed batch one item at a time, so only the bad item fails', async () => {
    const writer = recordingWriter(new Set([3]));
    writer.hold();
    const call = groupCommit(writer.write);
    const first = call(1);
    const results = [2, 3, 4].map((i) => call(i).then((r) => r, (err: Error) => err.message));
    writer.release();
    expect(await first).toBe(10);
    expect(await Promise.all(results)).toEqual([20, 'bad item in [3]', 40]);
    expect(writer.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('keeps writing after a failure', async () => {
    const writer = recordingWriter(new Set([1]));
    const call = groupCommit(writer.write);
    await expect(call(1)).rejects.toThrow('bad item in [1]');
    expect(await call(2)).toBe(20);
  });
});
