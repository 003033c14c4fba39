/** Health, closing, and arguments the store refuses. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { isStorageError } from '../../../src/storage/errors.js';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { bytes, tempDir, withTempStore } from './temp-store.js';

const isCode = (code: string) => (err: unknown) => isStorageError(err) && err.code === code;

describe('SqliteStorage lifecycle', () => {
  for (const writer of ['worker', 'inline'] as const) {
    it(`answers health checks while open, and 'unavailable' once closed (${writer} writer)`, async () => {
      const dataDir = await tempDir();
      const store = await SqliteStorage.open({ dataDir, writer });
      try {
        await store.checkHealth();
        await assert.rejects(store.checkHealth(AbortSignal.abort()), isCode('unavailable'));
        const written = await store.create('/k', bytes('x'));
        assert.equal(store.knownCurrentRevision(), written.revision, 'the embedded store knows its revision without a round trip');
        assert.equal(store.knownCurrentRevision(), await store.currentRevision());
        await store.close();
        await store.close();
        assert.equal(store.knownCurrentRevision(), undefined);
        await assert.rejects(store.checkHealth(), isCode('unavailable'));
        await assert.rejects(store.get('/k'), isCode('unavailable'));
        await assert.rejects(store.create('/k2', bytes('x')), isCode('unavailable'));
        await assert.rejects(store.currentRevision(), isCode('unavailable'));
      } finally {
        await store.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('finishes the writes already submitted when it closes', async () => {
    const dataDir = await tempDir();
    try {
      const store = await SqliteStorage.open({ dataDir });
      const writes = Array.from({ length: 50 }, (_, i) => store.create(`/k${i}`, bytes(String(i))));
      await store.close();
      assert.equal((await Promise.allSettled(writes)).filter((w) => w.status === 'fulfilled').length, 50);
      const reopened = await SqliteStorage.open({ dataDir });
      assert.equal((await reopened.list('/')).kvs.length, 50);
      await reopened.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("reports 'unavailable' for writes and health once the writer thread is gone; reads go on", () =>
    withTempStore({ writer: 'worker' }, async (store) => {
      await store.create('/k', bytes('x'));
      // Reach into the executor to kill its thread, as a crash of the thread would.
      const executor = (store as unknown as { executor: { worker: Worker } }).executor;
      await executor.worker.terminate();
      await assert.rejects(store.create('/k2', bytes('x')), isCode('unavailable'));
      await assert.rejects(store.checkHealth(), isCode('unavailable'));
      assert.equal((await store.get('/k')).kv?.value.length, 1);
    }));

  it("refuses malformed arguments with 'invalid'", () =>
    withTempStore({ writer: 'inline' }, async (store) => {
      await store.create('/k', bytes('x'));
      await assert.rejects(store.get('/k', -1), isCode('invalid'));
      await assert.rejects(store.get('/k', 1.5), isCode('invalid'));
      await assert.rejects(store.list('/', { limit: -1 }), isCode('invalid'));
      await assert.rejects(store.create('', bytes('x')), isCode('invalid'));
      await assert.rejects(store.compact(-3), isCode('invalid'));
    }));
});
