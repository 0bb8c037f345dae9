/**
 * A run-wide budget of map items in flight (docs/execution.md#map-nodes). Maps side by side each
 * run up to `max_parallelism` items; together they must stay inside Temporal's 2,000 pending
 * activities per workflow, beside the run's other nodes (at most MAX_PARALLELISM_CAP).
 */

/** Activity items of all inline maps of one run at once: with up to 1,000 nodes, under 2,000. */
export const MAP_ITEMS_IN_FLIGHT = 1000;

export class ItemSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  /**
   * Takes a slot: synchronously (undefined) when one is free, so a run that never fills the
   * budget schedules its items exactly as without it; otherwise a promise resolved, first come
   * first served, when a slot is given back.
   */
  take(): Promise<void> | undefined {
    if (this.free > 0) {
      this.free -= 1;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back, to the longest waiter if any. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}
