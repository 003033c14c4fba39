/**
 * guaranteedUpdate's first attempt starts from the watch cache's object (as upstream's starts from
 * the cacher's): no storage read when the cache is current, and the right outcome when it is
 * behind. A cache behind the store is made by answering getNow with an older object.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badRequest } from '../../../src/api/errors.js';
import type { KubeObject } from '../../../src/registry/object.js';
import type { StoreContext } from '../../../src/registry/store/store-context.js';
import { guaranteedUpdate, replaceObject } from '../../../src/registry/store/update.js';
import type { WatchCache } from '../../../src/storage/cacher/cache-types.js';
import { CM_KEY, configMap, rejectsWith, stored, withStores, WRITE, type StoreFixture } from './store-fixture.js';

const RETRY = { ...WRITE, retryOnConflict: true };

/** The store's context with a cache that answers with `object` for every key, as a cache behind the store would. */
function contextSeeing(ctx: StoreContext, object: KubeObject): StoreContext {
  const cache = Object.create(ctx.cache) as WatchCache<KubeObject>;
  const modRevision = Number(object.metadata?.resourceVersion);
  cache.getNow = () => ({ entry: { key: CM_KEY, object, modRevision, createRevision: modRevision }, revision: modRevision });
  return { ...ctx, cache };
}

/** Counts the storage's point reads from now on. */
function countReads(f: StoreFixture): { readonly count: number } {
  const counter = { count: 0 };
  const get = f.storage.get.bind(f.storage);
  f.storage.get = (...args: Parameters<typeof get>) => {
    counter.count++;
    return get(...args);
  };
  return counter;
}

/** Creates ConfigMap ns1/a, then changes it once through the store; returns both versions. */
async function twoVersions(f: StoreFixture): Promise<{ first: KubeObject; second: KubeObject }> {
  const configMaps = f.store('', 'configmaps');
  const first = await configMaps.create('ns1', configMap('a', { k: 'v' }), WRITE);
  const { object: second } = await configMaps.update('ns1', 'a', (c) => ({ ...c, metadata: { ...c.metadata, labels: { other: 'writer' } }, data: { k: 'other' } }), WRITE);
  return { first, second };
}

/** {@link twoVersions}, once the cache holds the second: a cache as current as the store. */
async function twoVersionsCached(f: StoreFixture): Promise<{ first: KubeObject; second: KubeObject }> {
  const versions = await twoVersions(f);
  await cacheAt(f, versions.second.metadata?.resourceVersion);
  return versions;
}

/** Waits until the store's cache holds the object at `resourceVersion`. */
async function cacheAt(f: StoreFixture, resourceVersion: string | undefined): Promise<void> {
  const ctx = f.store('', 'configmaps').context;
  for (let i = 0; i < 100; i++) {
    if (ctx.cache.getNow(CM_KEY, { kind: 'any' })?.entry?.object.metadata?.resourceVersion === resourceVersion) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail(`the cache never reached ${resourceVersion}`);
}

test('an update on a current cache reads nothing from the storage', () =>
  withStores(async (f) => {
    await twoVersionsCached(f);
    const reads = countReads(f);
    const { object } = await f.store('', 'configmaps').update('ns1', 'a', (c) => ({ ...c, data: { k: 'third' } }), WRITE);
    assert.equal(reads.count, 0);
    assert.deepEqual(object['data'], { k: 'third' });
    assert.deepEqual(await stored(f, CM_KEY), object);
  }));

test('on a cache behind the store, the update is made again on the stored object', () =>
  withStores(async (f) => {
    const { first, second } = await twoVersions(f);
    const ctx = contextSeeing(f.store('', 'configmaps').context, first);
    const seen: KubeObject[] = [];
    const { object } = await guaranteedUpdate(ctx, 'ns1', 'a', (c) => (seen.push(structuredClone(c)), { ...c, data: { ...(c['data'] as object), mine: 'yes' } }), RETRY);
    assert.deepEqual(seen.map((c) => c.metadata?.resourceVersion), [first.metadata?.resourceVersion, second.metadata?.resourceVersion]);
    assert.deepEqual(object.metadata?.labels, { other: 'writer' }, "the other writer's change was lost");
    assert.deepEqual(object['data'], { k: 'other', mine: 'yes' });
    assert.deepEqual(await stored(f, CM_KEY), object);
  }));

test("on a cache behind the store, a client's current resourceVersion is no conflict", () =>
  withStores(async (f) => {
    const { first, second } = await twoVersions(f);
    const ctx = contextSeeing(f.store('', 'configmaps').context, first);
    const body = { ...structuredClone(second), data: { k: 'put' } };
    // As a PUT naming a resourceVersion: no retry on conflict.
    const { object } = await guaranteedUpdate(ctx, 'ns1', 'a', () => structuredClone(body), { ...WRITE, retryOnConflict: false });
    assert.deepEqual(object['data'], { k: 'put' });
    assert.ok(Number(object.metadata?.resourceVersion) > Number(second.metadata?.resourceVersion));
  }));

test('an update that changes nothing on an old cached object is still written against the stored one', () =>
  withStores(async (f) => {
    const { first } = await twoVersions(f);
    const ctx = contextSeeing(f.store('', 'configmaps').context, first);
    // The first version's data again: nothing to write on the cache's object, a change on the store's.
    const { object } = await guaranteedUpdate(ctx, 'ns1', 'a', (c) => ({ ...c, data: { k: 'v' } }), RETRY);
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'v' });
    assert.deepEqual(object['data'], { k: 'v' });
  }));

test('on a current cache, a failure stands after one read of the store, and tryUpdate runs once', () =>
  withStores(async (f) => {
    await twoVersionsCached(f);
    const reads = countReads(f);
    let calls = 0;
    const refuse = (): KubeObject => {
      calls++;
      throw badRequest('refused by the test');
    };
    await rejectsWith(guaranteedUpdate(f.store('', 'configmaps').context, 'ns1', 'a', refuse, RETRY), 400, 'BadRequest', 'refused by the test');
    assert.equal(calls, 1);
    assert.equal(reads.count, 1);
  }));

test("a no-op answered from the cache is a copy, not the cache's object", () =>
  withStores(async (f) => {
    const { second } = await twoVersionsCached(f);
    const ctx = f.store('', 'configmaps').context;
    const cached = ctx.cache.getNow(CM_KEY, { kind: 'any' })?.entry?.object;
    const { object } = await guaranteedUpdate(ctx, 'ns1', 'a', (c) => c, RETRY);
    assert.notEqual(object, cached);
    assert.deepEqual(object, cached);
    assert.equal(object.metadata?.resourceVersion, second.metadata?.resourceVersion);
  }));

test('an object deleted behind the cache is 404', () =>
  withStores(async (f) => {
    const { second } = await twoVersions(f);
    await f.storage.delete(CM_KEY);
    const ctx = contextSeeing(f.store('', 'configmaps').context, second);
    await rejectsWith(guaranteedUpdate(ctx, 'ns1', 'a', (c) => ({ ...c, data: { k: 'late' } }), RETRY), 404, 'NotFound', 'configmaps "a" not found');
  }));

test('a PUT on a current cache reads nothing from the storage, where the type cannot create on update', () =>
  withStores(async (f) => {
    const { second } = await twoVersionsCached(f);
    const reads = countReads(f);
    const { object, created } = await f.store('', 'configmaps').replace('ns1', 'a', { ...structuredClone(second), data: { k: 'put' } }, WRITE);
    assert.equal(reads.count, 0);
    assert.equal(created, false);
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'put' });
    assert.deepEqual(object['data'], { k: 'put' });
  }));

test('a PUT of an object deleted behind the cache is 404 where the type cannot create on update', () =>
  withStores(async (f) => {
    const { second } = await twoVersions(f);
    await f.storage.delete(CM_KEY);
    const ctx = contextSeeing(f.store('', 'configmaps').context, second);
    const body = { ...structuredClone(second), data: { k: 'put' } };
    await rejectsWith(replaceObject(ctx, 'ns1', 'a', body, WRITE, () => assert.fail('a ConfigMap is not created on update')), 404, 'NotFound', 'configmaps "a" not found');
  }));
