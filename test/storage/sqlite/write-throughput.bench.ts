/**
 * Benchmark (not a test): acknowledged durable writes per second against SqliteStorage, by number
 * of concurrent writers and writer mode. Each writer creates keys with 500-byte values in a loop
 * for a few seconds. Run after a build:
 *
 *   node dist/test/storage/sqlite/write-throughput.bench.js [seconds] [concurrency,...] [worker|inline,...]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';

async function measure(writer: 'worker' | 'inline', concurrency: number, seconds: number): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-bench-'));
  const store = await SqliteStorage.open({ dataDir, writer });
  const value = new Uint8Array(500).fill(42);
  const deadline = Date.now() + seconds * 1000;
  let acknowledged = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = 0; Date.now() < deadline; i++) {
        await store.create(`/registry/configmaps/bench/w${w}-${i}`, value);
        acknowledged++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
  return acknowledged / elapsed;
}

const seconds = Number(process.argv[2] ?? 3);
const concurrencies = (process.argv[3] ?? '1,16,256').split(',').map(Number);
const modes = (process.argv[4] ?? 'worker,inline').split(',') as Array<'worker' | 'inline'>;
for (const mode of modes) {
  for (const concurrency of concurrencies) {
    const rate = await measure(mode, concurrency, seconds);
    console.log(`${mode.padEnd(6)} writer, ${String(concurrency).padStart(3)} concurrent writers: ${Math.round(rate)} writes/s`);
  }
}
