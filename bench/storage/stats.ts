/** The storage benchmark's values and clock. (Percentiles and medians: bench/stats.ts.) */

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
