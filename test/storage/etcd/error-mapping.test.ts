import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ClientClosedError,
  EtcdError,
  GRPCDeadlineExceededError,
  GRPCGenericError,
  GRPCOutOfRangeError,
  GRPCUnavailableError,
} from 'etcd3';
import { StorageError, type StorageErrorCode } from '../../../src/storage/errors.js';
import { toStorageError } from '../../../src/storage/etcd/error-mapping.js';

const context = { servers: 'http://10.0.0.1:2379,http://10.0.0.2:2379', operation: 'get /registry/pods/a' };

/** The texts etcd and grpc-js really produce (etcd wraps mvcc errors in gRPC OutOfRange). */
const cases: ReadonlyArray<{ name: string; error: Error; code: StorageErrorCode; mentions?: string }> = [
  {
    name: 'a compacted revision',
    error: new GRPCOutOfRangeError('11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted'),
    code: 'compacted',
  },
  {
    name: 'a future revision',
    error: new GRPCOutOfRangeError('11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision'),
    code: 'future-revision',
  },
  {
    name: 'a refused connection',
    error: new GRPCUnavailableError('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.0.0.1:2379'),
    code: 'unavailable',
    mentions: 'cannot reach etcd at http://10.0.0.1:2379,http://10.0.0.2:2379',
  },
  {
    name: 'a deadline',
    error: new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded'),
    code: 'unavailable',
    mentions: 'cannot reach etcd',
  },
  {
    name: 'an open circuit breaker',
    error: Object.assign(new Error('Execution prevented because the circuit breaker is open'), { name: 'BrokenCircuitError' }),
    code: 'unavailable',
    mentions: 'cannot reach etcd',
  },
  { name: 'a closed client', error: new ClientClosedError('KV'), code: 'unavailable', mentions: 'cannot reach etcd' },
  { name: 'a leader change', error: new EtcdError('etcdserver: leader changed'), code: 'unavailable', mentions: 'leader changed' },
  { name: 'a request that is too large', error: new EtcdError('etcdserver: request is too large'), code: 'invalid' },
  { name: 'anything else', error: new GRPCGenericError('something odd'), code: 'unavailable', mentions: 'failed get /registry/pods/a' },
];

describe('etcd error mapping', () => {
  for (const c of cases) {
    it(`maps ${c.name} to '${c.code}'`, () => {
      const mapped = toStorageError(c.error, { ...context, requestedRevision: 7, boundRevision: 9 });
      assert.ok(mapped instanceof StorageError);
      assert.equal(mapped.code, c.code);
      assert.equal(mapped.cause, ['compacted', 'future-revision'].includes(c.code) ? undefined : c.error);
      if (c.mentions !== undefined) assert.match(mapped.message, new RegExp(c.mentions.replace(/[.]/g, '\\.')));
    });
  }

  it('reports the requested and the bounding revision of compacted and future reads', () => {
    const gone = toStorageError(cases[0]!.error, { ...context, requestedRevision: 7, boundRevision: 9 });
    assert.equal(gone.requestedRevision, 7);
    assert.equal(gone.revision, 9);
    const future = toStorageError(cases[1]!.error, { ...context, requestedRevision: 70, boundRevision: 12 });
    assert.equal(future.requestedRevision, 70);
    assert.equal(future.revision, 12);
  });

  it('passes a StorageError through unchanged', () => {
    const original = new StorageError('conflict', 'storage: x');
    assert.equal(toStorageError(original, context), original);
  });
});
