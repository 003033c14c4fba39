/**
 * The generic store's force delete of a corrupt object (ignoreStoreReadErrorWithClusterBreakingPotential),
 * as upstream's corrupt object deleter: corrupt values only, finalizers and all ignored, gone from
 * storage and from the watch cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageError } from '../../../src/storage/errors.js';
import { CM_KEY, configMap, deployment, rejectsWith, withStores, WRITE, type StoreFixture } from './store-fixture.js';

const CONSISTENT = { kind: 'consistent' } as const;
const NOT_CORRUPT = 'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option';

/** Overwrites the stored value of `key` with bytes that do not decode; returns the write's revision. */
async function corrupt(f: StoreFixture, key: string): Promise<number> {
  const { kv } = await f.storage.get(key);
  assert.ok(kv, `${key} is stored`);
  return (await f.storage.update(key, Buffer.from('{"kind":"ConfigMap",'), kv.modRevision)).revision;
}

test('a corrupt object fails its reads and the normal delete with 500', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a'), WRITE);
    await corrupt(f, CM_KEY);
    const cannotDecode = /^Internal error occurred: object stored at \/registry\/configmaps\/ns1\/a cannot be decoded: /;
    await rejectsWith(configMaps.get('ns1', 'a', CONSISTENT), 500, 'InternalError', cannotDecode);
    await rejectsWith(configMaps.delete('ns1', 'a', { dryRun: false }), 500, 'InternalError', cannotDecode);
    assert.ok((await f.storage.get(CM_KEY)).kv, 'still stored');
  }));

test('the force delete removes a corrupt object from storage and the cache, finalizers or not', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a', { k: 'v' }, { finalizers: ['example.com/hold'] }), WRITE);
    await configMaps.create('ns1', configMap('b'), WRITE);
    await corrupt(f, CM_KEY);
    assert.deepEqual(await configMaps.deleteCorrupt('ns1', 'a'), { object: undefined, deleted: true });
    assert.equal((await f.storage.get(CM_KEY)).kv, undefined);
    await rejectsWith(configMaps.get('ns1', 'a', CONSISTENT), 404, 'NotFound', 'configmaps "a" not found');
    const page = await configMaps.list({ namespace: 'ns1', at: CONSISTENT });
    assert.deepEqual(page.items.map((o) => o.metadata?.name), ['b']);
  }));

test('the force delete refuses a readable object with 422 and leaves it alone', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    const created = await configMaps.create('ns1', configMap('a'), WRITE);
    const err = await rejectsWith(configMaps.deleteCorrupt('ns1', 'a'), 422, 'Invalid', `configmaps "a" is invalid: ${NOT_CORRUPT}`);
    assert.deepEqual(err.details, {
      name: 'a',
      kind: 'configmaps',
      causes: [{ reason: 'FieldValueInvalid', message: NOT_CORRUPT.slice(NOT_CORRUPT.indexOf(' ') + 1), field: 'ignoreStoreReadErrorWithClusterBreakingPotential' }],
    });
    assert.equal((await configMaps.get('ns1', 'a', CONSISTENT)).metadata?.resourceVersion, created.metadata?.resourceVersion);
  }));

test('the force delete refuses an absent object with 422 too, naming the group', () =>
  withStores(async (f) => {
    const deployments = f.store('apps', 'deployments');
    await rejectsWith(deployments.deleteCorrupt('ns1', 'nothing'), 422, 'Invalid', `deployments.apps "nothing" is invalid: ${NOT_CORRUPT}`);
    await deployments.create('ns1', deployment('d'), WRITE);
    await corrupt(f, '/registry/apps/deployments/ns1/d');
    assert.deepEqual(await deployments.deleteCorrupt('ns1', 'd'), { object: undefined, deleted: true });
  }));

test('the force delete ends the watches of the type, which must list again', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a'), WRITE);
    const at = await corrupt(f, CM_KEY);
    const watch = await configMaps.watch({
      namespace: 'ns2', name: '', start: { kind: 'after', revision: at }, bookmarks: false, initialEventsEndBookmark: false, signal: new AbortController().signal,
    });
    const next = watch[Symbol.asyncIterator]().next();
    await configMaps.deleteCorrupt('ns1', 'a');
    await assert.rejects(next, (err: unknown) => err instanceof StorageError && err.code === 'compacted');
  }));
