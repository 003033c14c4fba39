/**
 * Acknowledged writes per second: `concurrency` writers, each creating fresh keys in a loop for a
 * fixed time, every write awaited before the writer's next one (so a write counts only once the
 * store has acknowledged it, which for both backends means durable on disk).
 */
import type { Storage } from '../../src/storage/storage.js';
import { percentiles } from '../stats.js';
import { benchValue, now } from './stats.js';

export interface WriteThroughput {
  readonly concurrency: number;
  readonly writesPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly errors: number;
  /** Some of the keys written, for the point-read workload. */
  readonly sampleKeys: readonly string[];
}

export async function measureWrites(
  storage: Storage,
  prefix: string,
  concurrency: number,
  durationMs: number,
  valueBytes: number,
): Promise<WriteThroughput> {
  const latencies: number[] = [];
  const sampleKeys: string[] = [];
  let errors = 0;
  const started = now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, writer) => {
      for (let i = 0; now() < deadline; i++) {
        const key = `${prefix}w${writer}/k${i}`;
        const value = benchValue(valueBytes, i);
        const begun = now();
        try {
          await storage.create(key, value);
          latencies.push(now() - begun);
          if (sampleKeys.length < 10_000) sampleKeys.push(key);
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  const latency = percentiles(latencies);
  return {
    concurrency,
    writesPerSecond: latencies.length / seconds,
    latencyP50Ms: latency.p50,
    latencyP99Ms: latency.p99,
    errors,
    sampleKeys,
  };
}
