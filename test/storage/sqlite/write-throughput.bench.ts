/**
 * Benchmark (not a test): acknowledged durable writes per second against SqliteStorage, by number
 * of concurrent writers and writer mode, and how long the event loop stalls meanwhile (p99 of
 * perf_hooks' event-loop delay). Each writer creates keys with 500-byte values in a loop; with
 * `work-us` > 0 each write first burns that much CPU on the main thread, standing in for the
 * decoding, admission and encoding a real request costs. Run after a build:
 *
 *   node dist/test/storage/sqlite/write-throughput.bench.js [seconds] [concurrency,...] [worker|inline,...] [work-us]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';

interface Measurement {
  readonly writesPerSecond: number;
  readonly eventLoopDelayP99Ms: number;
}

function burnCpu(microseconds: number): void {
  const until = performance.now() + microseconds / 1000;
  while (performance.now() < until);
}

async function measure(writer: 'worker' | 'inline', concurrency: number, seconds: number, workUs: number): Promise<Measurement> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-bench-'));
  const store = await SqliteStorage.open({ dataDir, writer });
  const deadline = Date.now() + seconds * 1000;
  let acknowledged = 0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = 0; Date.now() < deadline; i++) {
        if (workUs > 0) burnCpu(workUs);
        // A fresh value per write, from Buffer's pool, as an encoder would produce it.
        await store.create(`/registry/configmaps/bench/w${w}-${i}`, Buffer.alloc(500, i));
        acknowledged++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  delay.disable();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
  return { writesPerSecond: acknowledged / elapsed, eventLoopDelayP99Ms: delay.percentile(99) / 1e6 };
}

const seconds = Number(process.argv[2] ?? 3);
const concurrencies = (process.argv[3] ?? '1,16,256').split(',').map(Number);
const modes = (process.argv[4] ?? 'worker,inline').split(',') as Array<'worker' | 'inline'>;
const workUs = Number(process.argv[5] ?? 0);
for (const concurrency of concurrencies) {
  for (const mode of modes) {
    const m = await measure(mode, concurrency, seconds, workUs);
    console.log(
      `${mode.padEnd(6)} writer, ${String(concurrency).padStart(3)} writers, ${workUs} µs work/write: ` +
        `${Math.round(m.writesPerSecond)} writes/s, event-loop delay p99 ${m.eventLoopDelayP99Ms.toFixed(1)} ms`,
    );
  }
}
