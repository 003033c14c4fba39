/** Point reads per second: `concurrency` readers getting random existing keys for a fixed time. */
import type { Storage } from '../../src/storage/storage.js';
import { percentiles } from '../stats.js';
import { now } from './stats.js';

export interface PointReads {
  readonly concurrency: number;
  readonly readsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Reads that found no value or failed: should be 0. */
  readonly misses: number;
}

export async function measurePointReads(
  storage: Storage,
  keys: readonly string[],
  concurrency: number,
  durationMs: number,
): Promise<PointReads> {
  if (keys.length === 0) throw new Error('point reads need keys that exist');
  const latencies: number[] = [];
  let misses = 0;
  const started = now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (now() < deadline) {
        const key = keys[Math.floor(Math.random() * keys.length)]!;
        const begun = now();
        try {
          if ((await storage.get(key)).kv === undefined) misses++;
          latencies.push(now() - begun);
        } catch {
          misses++;
        }
      }
    }),
  );
  const latency = percentiles(latencies);
  return {
    concurrency,
    readsPerSecond: latencies.length / ((now() - started) / 1000),
    latencyP50Ms: latency.p50,
    latencyP99Ms: latency.p99,
    misses,
  };
}
