import { describe, expect, it } from 'vitest';
import { TaskBudget, UNSEEN_OUTPUT_BYTES } from '../../workflows/task-budget';

const small = { node_id: 'n', params: {}, inputs: {} };
/** Whether a promise has settled after the pending microtasks ran. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('the workflow-task budget of local nodes running side by side', () => {
  it('runs the first node of an unseen op alone, then its siblings side by side once it gave a small output', async () => {
    const budget = new TaskBudget(true);
    expect(budget.admitLocal('pick', small)).toBe(UNSEEN_OUTPUT_BYTES);
    const second = budget.admitLocal('pick', small);
    const third = budget.admitLocal('pick', small);
    expect(second).toBeInstanceOf(Promise);
    expect(await settledYet(second as Promise<number>)).toBe(false);
    budget.succeeded('pick', UNSEEN_OUTPUT_BYTES, 20);
    // Both woken, each guessing its input's size (larger than the op's 20-byte output).
    const guess = JSON.stringify(small).length;
    expect(await second).toBe(guess);
    expect(await third).toBe(guess);
  });

  it('guesses at least a node\'s input size, and the largest output its op gave', () => {
    const budget = new TaskBudget(true);
    expect(budget.admitLocal('echo', small)).toBe(UNSEEN_OUTPUT_BYTES);
    budget.succeeded('echo', UNSEEN_OUTPUT_BYTES, 300_000);
    expect(budget.admitLocal('echo', small)).toBe(300_000);
    const large = { ...small, inputs: { doc: 'x'.repeat(500_000) } };
    expect(budget.admitLocal('echo', large)).toBeGreaterThan(500_000);
  });

  it('holds a node back while the guesses of those in flight fill the budget, and lets it go when one ends', async () => {
    const budget = new TaskBudget(true);
    expect(budget.admitLocal('blob', small)).toBe(UNSEEN_OUTPUT_BYTES);
    budget.succeeded('blob', UNSEEN_OUTPUT_BYTES, 600_000);
    expect(budget.admitLocal('blob', small)).toBe(600_000); // used 0.6 MB, reserved 0.6 MB
    expect(budget.admitLocal('blob', small)).toBe(600_000); // 1.2 MB < TASK_BYTES: still admitted
    const waiting = budget.admitLocal('blob', small); // 1.8 MB counted, over TASK_BYTES: waits
    expect(await settledYet(waiting as Promise<number>)).toBe(false);
    budget.succeeded('blob', 600_000, 10); // used 0.6 MB, reserved 0.6 MB again
    expect(await waiting).toBe(600_000);
  });

  it('without reserving (runs before version 6) admits every local node while the task holds under the budget', () => {
    const budget = new TaskBudget(false);
    for (let i = 0; i < 5; i++) expect(budget.admitLocal('blob', small)).toBe(0);
    budget.succeeded('blob', 0, 900_000);
    expect(budget.admitLocal('blob', small)).toBe(0);
  });
});
