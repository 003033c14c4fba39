/**
 * The storage benchmark: the same workloads against every backend, one backend at a time (so they
 * do not compete for the machine), then one table and one RESULTS.md section.
 */
import { loadavg } from 'node:os';
import { CacheBackedStorage } from '../../src/storage/cacher/cache-backed-storage.js';
import type { Benchmark, BenchmarkContext } from '../run.js';
import { isMissing, openEtcd, openSqlite, type BackendOpener } from './backends.js';
import { measureList } from './list-latency.js';
import { measurePointReads } from './point-reads.js';
import { consoleTable, markdown, type BackendResults, type Settings } from './report.js';
import { now } from './stats.js';
import { measureWatchLatency } from './watch-latency.js';
import { measureWrites, type WriteThroughput } from './write-throughput.js';

const VALUE_BYTES = 1024;
const WRITER_LEVELS = [1, 16, 256] as const;
const LIST_OBJECTS = 10_000;
const WATCHERS = 1_000;

function settingsFor(quick: boolean): Settings & { listRuns: number } {
  return quick
    ? { valueBytes: VALUE_BYTES, writeSeconds: 0.5, readSeconds: 0.5, readers: 16, watchEvents: 20, listRuns: 1 }
    : { valueBytes: VALUE_BYTES, writeSeconds: 4, readSeconds: 3, readers: 16, watchEvents: 200, listRuns: 5 };
}

const BACKENDS: readonly BackendOpener[] = [openSqlite, openEtcd];

async function runBackend(open: BackendOpener, settings: ReturnType<typeof settingsFor>): Promise<BackendResults> {
  const backend = await open();
  if (isMissing(backend)) {
    console.log(`${backend.name}: skipped (${backend.reason})`);
    return { backend: backend.name, writes: [], problem: `skipped: ${backend.reason}` };
  }
  const { storage, name } = backend;
  const writes: WriteThroughput[] = [];
  const partial = (problem: string): BackendResults => ({ backend: name, writes, problem });
  try {
    // Warm up connections, JIT and the store's files; not counted.
    await measureWrites(storage, '/bench/warmup/', 16, 500, settings.valueBytes);
    for (const writers of WRITER_LEVELS) {
      const result = await measureWrites(storage, `/bench/writes-${writers}/`, writers, settings.writeSeconds * 1000, settings.valueBytes);
      writes.push(result);
      console.log(`${name}: ${writers} writers: ${Math.round(result.writesPerSecond)} writes/s${result.errors ? `, ${result.errors} errors` : ''}`);
    }
    const keys = writes.flatMap((w) => w.sampleKeys);
    const reads = await measurePointReads(storage, keys, settings.readers, settings.readSeconds * 1000);
    console.log(`${name}: ${Math.round(reads.readsPerSecond)} point reads/s`);
    const list = await measureList(storage, '/bench/list/', LIST_OBJECTS, settings.valueBytes, settings.listRuns);
    console.log(`${name}: list of ${LIST_OBJECTS}: ${list.medianMs.toFixed(1)} ms`);
    const watch = await measureWatchLatency(storage, '/bench/watch/', WATCHERS, settings.watchEvents, settings.valueBytes);
    console.log(`${name}: watch p50 ${watch.p50Ms.toFixed(2)} ms, p99 ${watch.p99Ms.toFixed(2)} ms (setup ${Math.round(watch.setupMs)} ms)`);
    // How the server runs it: one store watch per resource type feeding a watch cache, which
    // fans each event out to its watchers from memory. Closing the cache closes the store too.
    const cachedPrefix = '/bench/cached-watch/';
    const cached = new CacheBackedStorage(storage, { cachePrefixOf: (key) => (key.startsWith(cachedPrefix) ? cachedPrefix : undefined) });
    const cachedWatch = await measureWatchLatency(cached, cachedPrefix, WATCHERS, settings.watchEvents, settings.valueBytes);
    await cached.close();
    console.log(`${name}: through the watch cache: p50 ${cachedWatch.p50Ms.toFixed(2)} ms, p99 ${cachedWatch.p99Ms.toFixed(2)} ms`);
    return { backend: name, writes, reads, list, watch, cachedWatch };
  } catch (err) {
    console.error(`${name}: stopped: ${String(err)}`);
    return partial(`stopped: ${String(err)}`);
  } finally {
    await backend.close();
  }
}

export const storageBenchmark: Benchmark = {
  name: 'storage',
  description: `writes/s (${WRITER_LEVELS.join(', ')} writers), point reads/s, list of ${LIST_OBJECTS}, watch latency with ${WATCHERS} watchers, per backend`,
  async run(context: BenchmarkContext): Promise<void> {
    const settings = settingsFor(context.quick);
    const loadBefore = loadavg()[0]!;
    const started = now();
    const results: BackendResults[] = [];
    for (const open of BACKENDS) results.push(await runBackend(open, settings));
    const elapsed = (now() - started) / 1000;
    console.log(`\n${consoleTable(results)}\n\n(${Math.round(elapsed)} s)`);
    const load = { before: loadBefore, after: loadavg()[0]! };
    await context.writeResults(markdown(results, context.machine, settings, elapsed, load));
  },
};
