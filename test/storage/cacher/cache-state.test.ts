/** The cache's state machine on its own: storage events in, state and shared events out. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CacheState } from '../../../src/storage/cacher/cache-state.js';
import { getFromSnapshot } from '../../../src/storage/cacher/snapshot-reads.js';
import { deletedKeyValue } from '../../../src/storage/storage.js';
import { PREFIX, bytes, decodeItem, type Item } from './harness.js';

function stateWith(value: string, revision: number): CacheState<Item> {
  const state = new CacheState<Item>(decodeItem, { retentionMs: 60_000, maxEvents: 100 }, () => 0);
  const kv = { key: `${PREFIX}a`, value: bytes(value), createRevision: revision, modRevision: revision };
  state.replace(state.prepare([kv]), revision);
  return state;
}

describe('CacheState', () => {
  it('a delete without the deleted value removes a value that could not be decoded', () => {
    const state = stateWith('corrupt', 5);
    const change = state.apply({ type: 'delete', kv: deletedKeyValue(`${PREFIX}a`, 6), prevKv: undefined });
    assert.ok(change, 'the delete is a change');
    assert.equal(change.removesCorruptValue, true);
    assert.equal(change.revision, 6);
    assert.equal(getFromSnapshot(state.snapshot, `${PREFIX}a`).entry, undefined);
  });

  it('a delete without the deleted value repeats the decoded object it held', () => {
    const state = stateWith('1', 5);
    const change = state.apply({ type: 'delete', kv: deletedKeyValue(`${PREFIX}a`, 6), prevKv: undefined });
    assert.equal(change?.removesCorruptValue, false);
    const delivery = change?.deliveryFor(undefined);
    assert.ok(delivery && !(delivery instanceof Error) && delivery.type === 'DELETED');
    assert.equal(delivery.entry.object.value, '1');
    assert.equal(delivery.revision, 6);
  });
});
