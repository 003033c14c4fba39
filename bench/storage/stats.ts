/** Small numeric helpers for the storage benchmark. */

/** The p-th percentile (0-100) of the samples, by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** A value of `size` bytes that differs per call, as a freshly encoded object would. */
export function benchValue(size: number, seed: number): Uint8Array {
  const value = Buffer.allocUnsafe(size);
  value.fill(`{"metadata":{"name":"object-${seed}"},"data":"`);
  return value;
}

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}
