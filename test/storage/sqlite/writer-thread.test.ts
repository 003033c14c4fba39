/**
 * The writer thread started ahead of the store (writer-thread.ts): a store takes it when it opens,
 * a store that writes inline stops it, and one that died before it was taken is replaced.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { prestartWriterThread } from '../../../src/storage/sqlite/writer-thread.js';
import { bytes, tempDir } from './temp-store.js';

const PRESTARTED = Symbol.for('capstan.sqlite.prestartedWriterThread');

/** The thread waiting to be taken, if any. */
function waiting(): Worker | undefined {
  return (globalThis as { [PRESTARTED]?: { worker: Worker } })[PRESTARTED]?.worker;
}

function exited(worker: Worker): Promise<number> {
  return new Promise((resolve) => worker.once('exit', resolve));
}

async function withStore(writer: 'worker' | 'inline', body: (store: SqliteStorage) => Promise<void>): Promise<void> {
  const dataDir = await tempDir();
  const store = await SqliteStorage.open({ dataDir, writer });
  try {
    await body(store);
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('prestarted writer thread', () => {
  it('is the thread the store opens with, and it writes', async () => {
    prestartWriterThread();
    const prestarted = waiting();
    assert.ok(prestarted, 'a thread waits to be taken');
    prestartWriterThread();
    assert.equal(waiting(), prestarted, 'a second call starts no second thread');
    await withStore('worker', async (store) => {
      assert.equal(waiting(), undefined, 'the store took it');
      assert.equal((store as unknown as { executor: { worker: Worker } }).executor.worker, prestarted);
      const written = await store.create('/k', bytes('v'));
      assert.deepEqual((await store.get('/k')).kv?.modRevision, written.revision);
    });
  });

  it('is stopped by a store that writes inline', async () => {
    prestartWriterThread();
    const prestarted = waiting()!;
    const gone = exited(prestarted);
    await withStore('inline', async (store) => {
      assert.equal(waiting(), undefined);
      await store.create('/k', bytes('v'));
    });
    await gone;
  });

  it('is replaced when it died before the store opened', async () => {
    prestartWriterThread();
    const prestarted = waiting()!;
    await prestarted.terminate();
    await withStore('worker', async (store) => {
      const used = (store as unknown as { executor: { worker: Worker } }).executor.worker;
      assert.notEqual(used, prestarted, 'a new thread, not the dead one');
      await store.create('/k', bytes('v'));
    });
  });
});
