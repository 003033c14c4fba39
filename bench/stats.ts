/** Percentiles from raw samples, and medians: one rule for every benchmark. */

/** p50 and p99 of a sample set, in its unit. */
export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

/** Nearest-rank percentiles of all samples (sorted once); NaN when there are none. */
export function percentiles(...sampleSets: ReadonlyArray<ArrayLike<number>>): Percentiles {
  const count = sampleSets.reduce((n, s) => n + s.length, 0);
  const all = new Float64Array(count);
  let at = 0;
  for (const s of sampleSets) {
    all.set(s, at);
    at += s.length;
  }
  all.sort();
  return { p50: nearestRank(all, 50), p99: nearestRank(all, 99), count };
}

function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const count = sorted.length;
  return count === 0 ? Number.NaN : sorted[Math.min(count - 1, Math.max(0, Math.ceil((p / 100) * count) - 1))]!;
}

/** The median of a few values (rounds of one workload); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
