import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeReadError } from '../../src/api/errors.js';

describe('storeReadError', () => {
  const values = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `/registry/deployments/ns/d${i}`, revision: i + 1, reason: 'bad' }));

  it('names the resource with its group, and each key', () => {
    const status = storeReadError('deployments', 'apps', values(2)).toStatus();
    assert.equal(status.code, 500);
    assert.equal(status.reason, 'StorageReadError');
    assert.equal(status.message, 'failed to read one or more deployments.apps from the storage');
    assert.deepEqual(status.details?.causes?.[1], {
      reason: 'UnexpectedServerResponse',
      message: 'StorageError: corrupt object, Code: 7, Key: /registry/deployments/ns/d1, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=2: bad',
      field: '/registry/deployments/ns/d1',
    });
    assert.deepEqual(Object.keys(status.details!), ['name', 'group', 'kind', 'causes']);
  });

  it('names at most 100, then says the list is truncated', () => {
    const causes = storeReadError('configmaps', '', values(150)).toStatus().details!.causes!;
    assert.equal(causes.length, 101);
    assert.deepEqual(causes[100], { reason: 'TooMany', message: 'too many errors, the list is truncated' });
  });
});
