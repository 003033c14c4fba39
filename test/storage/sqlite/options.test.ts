import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isStorageError } from '../../../src/storage/errors.js';
import { resolveSqliteOptions } from '../../../src/storage/sqlite/sqlite-options.js';

describe('SQLite storage options', () => {
  it("refuse a size that is not a positive integer with StorageError('invalid'), as every storage failure", () => {
    assert.throws(
      () => resolveSqliteOptions({ dataDir: '/nonexistent', walAutocheckpointPages: 0 }),
      (err: unknown) => isStorageError(err, 'invalid') && /walAutocheckpointPages must be a positive integer, got 0/.test(err.message),
    );
  });
});
