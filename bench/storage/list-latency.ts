/** How long one unpaged list of `count` objects takes (median and worst of several runs). */
import type { Storage } from '../../src/storage/storage.js';
import { median } from '../stats.js';
import { benchValue, now } from './stats.js';

export interface ListLatency {
  readonly objects: number;
  readonly medianMs: number;
  readonly maxMs: number;
  readonly runs: number;
}

/** Creates `count` keys under `prefix` (64 at a time), then lists them `runs` times. */
export async function measureList(storage: Storage, prefix: string, count: number, valueBytes: number, runs: number): Promise<ListLatency> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      for (let i = next++; i < count; i = next++) {
        await storage.create(`${prefix}${String(i).padStart(6, '0')}`, benchValue(valueBytes, i));
      }
    }),
  );
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const begun = now();
    const listed = await storage.list(prefix);
    times.push(now() - begun);
    if (listed.kvs.length !== count) throw new Error(`listed ${listed.kvs.length} objects, expected ${count}`);
  }
  return { objects: count, medianMs: median(times), maxMs: Math.max(...times), runs };
}
