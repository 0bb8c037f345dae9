/**
 * Small statistics for noisy machines: medians and percentiles of repeated samples, and
 * interleaved repetitions so slow phases of a shared machine hit every variant alike.
 */

/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median (mean of the two middle values for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A distribution-free interval for the median: the k-th smallest and k-th largest samples, with
 * the largest k whose coverage (1 − 2·P[Binomial(n, ½) < k]) is at least `confidence`. Returns
 * the interval and its exact coverage; the whole range when n is too small for the confidence.
 */
export function medianInterval(samples: readonly number[], confidence = 0.9): { low: number; high: number; coverage: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  let k = 1;
  let term = 0.5 ** n; // P[B = k - 1]
  let below = term; // P[B < k]
  while (k + 1 <= (n + 1) / 2) {
    term = (term * (n - k + 1)) / k;
    if (1 - 2 * (below + term) < confidence) break;
    below += term;
    k += 1;
  }
  return { low: sorted[k - 1] ?? Number.NaN, high: sorted[n - k] ?? Number.NaN, coverage: 1 - 2 * below };
}

/** Rounds for display: whole numbers above 100, otherwise `digits` significant decimals. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  if (Math.abs(value) >= 100) return Math.round(value);
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** a[i] / b[i] for samples taken side by side in the same repetition. */
export function pairRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}

/**
 * Runs every variant once per repetition, rotating which goes first (ABC, BCA, CAB…) so slow
 * phases of a shared machine hit all of them alike; returns the samples per variant.
 */
export async function interleave(repetitions: number, variants: ReadonlyArray<() => Promise<number>>): Promise<number[][]> {
  const samples = variants.map(() => [] as number[]);
  for (let rep = 0; rep < repetitions; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const v = (rep + k) % variants.length;
      samples[v]!.push(await variants[v]!());
    }
  }
  return samples;
}
