/**
 * A batch that SQLite cannot commit fails as a whole with 'unavailable', uses up no revision, and
 * leaves the store working. The failure is injected with a trigger that aborts one insert.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isStorageError } from '../../../src/storage/errors.js';
import { bytes, withTempStore } from './temp-store.js';

describe('SqliteStorage batch failure', () => {
  for (const writer of ['worker', 'inline'] as const) {
    it(`fails every write of a batch SQLite rolled back, then goes on (${writer} writer)`, () =>
      withTempStore({ writer }, async (store, dataDir) => {
        const before = (await store.create('/f/before', bytes('x'))).revision;
        const db = new Database(join(dataDir, 'state.db'));
        db.exec("CREATE TRIGGER poison BEFORE INSERT ON kv WHEN NEW.key = '/f/poison' BEGIN SELECT RAISE(ABORT, 'poisoned'); END");
        db.close();

        const outcomes = await Promise.allSettled([
          store.create('/f/a', bytes('a')),
          store.create('/f/poison', bytes('p')),
          store.create('/f/b', bytes('b')),
        ]);
        for (const outcome of outcomes) {
          assert.equal(outcome.status, 'rejected');
          assert.ok(isStorageError((outcome as PromiseRejectedResult).reason, 'unavailable'));
        }
        assert.equal(await store.currentRevision(), before);
        assert.equal((await store.get('/f/a')).kv, undefined);

        const after = await store.create('/f/a', bytes('a'));
        assert.equal(after.revision, before + 1, 'the failed batch used up no revision');
      }));
  }
});
