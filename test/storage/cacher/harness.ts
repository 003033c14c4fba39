/** Shared fixtures of the watch cache tests: a cache over MemoryStorage, timers, event readers. */
import assert from 'node:assert/strict';
import { Cacher } from '../../../src/storage/cacher/cacher.js';
import type { CacheTimers, CacherOptions } from '../../../src/storage/cacher/cacher-options.js';
import type { CacheWatch, CacheWatchEvent } from '../../../src/storage/cacher/cache-types.js';
import { StorageError } from '../../../src/storage/errors.js';
import type { KeyValue } from '../../../src/storage/storage.js';
import { MemoryStorage } from './memory-storage.js';

/** What the test decoder makes of a stored value. */
export interface Item {
  readonly key: string;
  readonly value: string;
  readonly revision: number;
}

export const PREFIX = '/registry/things/';

export function bytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Decodes "text" values; the value "corrupt" is unreadable. */
export function decodeItem(kv: KeyValue): Item {
  const value = Buffer.from(kv.value).toString('utf8');
  if (value === 'corrupt') throw new Error('bad bytes');
  return { key: kv.key, value, revision: kv.modRevision };
}

export { ManualTimers } from '../../manual-timers.js';

/** Fast defaults for tests: short waits, no idle bookmarks unless a test asks. */
export const testOptions: Partial<CacherOptions> = {
  futureRevisionWaitMs: 100,
  consistentReadWaitMs: 300,
  bookmarkIntervalMs: 60_000,
  relistDelayMs: 5,
};

export interface Fixture {
  readonly storage: MemoryStorage;
  readonly cache: Cacher<Item>;
  /** Writes and returns the revision. */
  put(name: string, value: string): Promise<number>;
  remove(name: string): Promise<number>;
  /** Waits until the cache has seen `revision`. */
  seen(revision: number): Promise<void>;
}

/** Runs `body` with a started cache of PREFIX over a fresh MemoryStorage; always stops it. */
export async function withCache(
  body: (f: Fixture) => Promise<void>,
  options: Partial<CacherOptions> = {},
  timers?: CacheTimers,
  storage = new MemoryStorage(),
): Promise<void> {
  const cache = new Cacher<Item>({
    storage,
    prefix: PREFIX,
    decoder: decodeItem,
    options: { ...testOptions, ...options },
    ...(timers !== undefined ? { timers } : {}),
  });
  await cache.start();
  const fixture: Fixture = {
    storage,
    cache,
    async put(name, value) {
      const key = PREFIX + name;
      const current = await storage.get(key);
      const result = current.kv ? await storage.update(key, bytes(value), current.kv.modRevision) : await storage.create(key, bytes(value));
      return result.revision;
    },
    async remove(name) {
      return (await storage.delete(PREFIX + name)).revision;
    },
    async seen(revision) {
      for (let i = 0; i < 1000 && cache.revision < revision; i++) await new Promise((r) => setImmediate(r));
      assert.ok(cache.revision >= revision, `cache reached ${revision}`);
    },
  };
  try {
    await body(fixture);
  } finally {
    await cache.stop();
  }
}

/**
 * A read that timed out is still pending on the watch; the next read must reuse it, or the event
 * it eventually gets would be lost.
 */
const pendingReads = new WeakMap<object, Promise<IteratorResult<unknown>>>();

/** Reads the next `count` events, failing after `ms` instead of hanging. */
export async function take<T>(watch: CacheWatch<T>, count: number, ms = 2000): Promise<CacheWatchEvent<T>[]> {
  const out: CacheWatchEvent<T>[] = [];
  while (out.length < count) {
    let read = pendingReads.get(watch) as Promise<IteratorResult<CacheWatchEvent<T>>> | undefined;
    if (read === undefined) {
      read = watch[Symbol.asyncIterator]().next();
      read.catch(() => undefined);
      pendingReads.set(watch, read);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${out.length} of ${count} events`)), ms);
    });
    try {
      const next = await Promise.race([read, timeout]);
      pendingReads.delete(watch);
      if (next.done === true) throw new Error(`watch ended after ${out.length} of ${count} events`);
      out.push(next.value);
    } catch (err) {
      if (err instanceof StorageError) pendingReads.delete(watch);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
  return out;
}

/** Resolves to true if the watch has an event ready within `ms` (a short real wait). */
export async function hasEvent<T>(watch: CacheWatch<T>, ms = 30): Promise<boolean> {
  try {
    await take(watch, 1, ms);
    return true;
  } catch (err) {
    if (err instanceof StorageError) throw err;
    return false;
  }
}

/** "TYPE name=value@revision" for assertions. */
export function describe<T extends Item>(event: CacheWatchEvent<T>): string {
  if (event.type === 'BOOKMARK') return `BOOKMARK @${event.revision}${event.initialEventsEnd ? ' end' : ''}`;
  return `${event.type} ${event.entry.key.slice(PREFIX.length)}=${event.entry.object.value}@${event.revision}`;
}

export async function assertRejects(promise: Promise<unknown>, code: string): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof StorageError, `expected StorageError '${code}', got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected StorageError '${code}'`);
}
