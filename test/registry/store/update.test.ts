/** The generic store's read-modify-write (upstream's GuaranteedUpdate) and PUT (Store.Update). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { guaranteedUpdate } from '../../../src/registry/store/update.js';
import { CM_KEY, configMap, NOW_STAMP, pod, rejectsWith, stored, withStores, WRITE, type StoreFixture } from './store-fixture.js';

const MODIFIED = 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again';

/** Creates ConfigMap ns1/a and returns it as stored. */
async function createA(f: StoreFixture, data: Record<string, string> = { k: 'v' }): Promise<KubeObject> {
  return f.store('', 'configmaps').create('ns1', configMap('a', data), WRITE);
}

function setData(data: Record<string, string>) {
  return (current: KubeObject): KubeObject => ({ ...current, data });
}

test('an update writes the new object at a new resourceVersion and keeps uid and creationTimestamp', () =>
  withStores(async (f) => {
    const created = await createA(f);
    f.advance(60_000);
    const { object, deleted } = await f.store('', 'configmaps').update('ns1', 'a', setData({ k: 'changed' }), WRITE);
    const { kv } = await f.storage.get(CM_KEY);
    assert.equal(deleted, false);
    assert.equal(object.metadata?.resourceVersion, String(kv?.modRevision));
    assert.ok(Number(object.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion));
    assert.equal(object.metadata?.uid, 'uid-1');
    assert.equal(object.metadata?.creationTimestamp, NOW_STAMP);
    assert.deepEqual(await stored(f, CM_KEY), object);
  }));

test('a stale resourceVersion in the new object is 409 Conflict and is not retried', () =>
  withStores(async (f) => {
    const created = await createA(f);
    const configMaps = f.store('', 'configmaps');
    await configMaps.update('ns1', 'a', setData({ k: 'second' }), WRITE);
    let calls = 0;
    const stale = (current: KubeObject): KubeObject => {
      calls++;
      return { ...current, metadata: { ...current.metadata, resourceVersion: created.metadata?.resourceVersion }, data: { k: 'stale' } };
    };
    await rejectsWith(configMaps.update('ns1', 'a', stale, WRITE), 409, 'Conflict', MODIFIED);
    assert.equal(calls, 1);
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'second' });
  }));

test('retryOnConflict: a write that lost to another writer re-reads and runs tryUpdate again', () =>
  withStores(async (f) => {
    await createA(f, { base: '1' });
    const configMaps = f.store('', 'configmaps');
    const seen: KubeObject[] = [];
    const { object } = await configMaps.update(
      'ns1',
      'a',
      async (current) => {
        seen.push(structuredClone(current));
        // The first attempt is overtaken: another writer changes the object after it was read.
        if (seen.length === 1) await configMaps.update('ns1', 'a', (other) => ({ ...other, metadata: { ...other.metadata, labels: { other: 'writer' } } }), WRITE);
        return { ...current, data: { ...(current['data'] as object), mine: 'yes' } };
      },
      WRITE,
    );
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!.metadata?.labels, undefined);
    assert.deepEqual(seen[1]!.metadata?.labels, { other: 'writer' });
    const now = await stored(f, CM_KEY);
    assert.deepEqual(now?.metadata?.labels, { other: 'writer' }, 'the other writer\'s change was lost');
    assert.deepEqual(now?.['data'], { base: '1', mine: 'yes' });
    assert.deepEqual(now, object);
  }));

test('without retryOnConflict a write that lost to another writer is 409 Conflict', () =>
  withStores(async (f) => {
    await createA(f);
    const configMaps = f.store('', 'configmaps');
    let calls = 0;
    const overtaken = async (current: KubeObject): Promise<KubeObject> => {
      calls++;
      await configMaps.update('ns1', 'a', setData({ k: 'other' }), WRITE);
      return { ...current, data: { k: 'mine' } };
    };
    await rejectsWith(guaranteedUpdate(configMaps.context, 'ns1', 'a', overtaken, { ...WRITE, retryOnConflict: false }), 409, 'Conflict', MODIFIED);
    assert.equal(calls, 1);
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'other' });
  }));

test('a no-op update writes nothing and keeps the resourceVersion', () =>
  withStores(async (f) => {
    const created = await createA(f);
    const before = await f.storage.currentRevision();
    f.advance(60_000);
    const { object } = await f.store('', 'configmaps').update('ns1', 'a', (current) => current, WRITE);
    assert.equal(object.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assert.equal(await f.storage.currentRevision(), before);
  }));

test('preconditions on uid and resourceVersion fail with 409 in the storage layer\'s words', async (t) => {
  const cases = [
    { name: 'uid', preconditions: () => ({ uid: 'other-uid' }), failed: () => 'UID in precondition: other-uid, UID in object meta: uid-1' },
    {
      name: 'resourceVersion',
      preconditions: (stale: string) => ({ resourceVersion: stale }),
      failed: (stale: string, current: string) => `ResourceVersion in precondition: ${stale}, ResourceVersion in object meta: ${current}`,
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () =>
      withStores(async (f) => {
        const stale = (await createA(f)).metadata?.resourceVersion ?? '';
        const configMaps = f.store('', 'configmaps');
        const current = (await configMaps.update('ns1', 'a', setData({ k: 'second' }), WRITE)).object.metadata?.resourceVersion ?? '';
        let calls = 0;
        const tryUpdate = (object: KubeObject): KubeObject => {
          calls++;
          return { ...object, data: { k: 'changed' } };
        };
        await rejectsWith(
          configMaps.update('ns1', 'a', tryUpdate, { ...WRITE, preconditions: c.preconditions(stale) }),
          409,
          'Conflict',
          `Operation cannot be fulfilled on configmaps "a": StorageError: invalid object, Code: 4, Key: ${CM_KEY}, ResourceVersion: 0, ` +
            `AdditionalErrorMsg: Precondition failed: ${c.failed(stale, current)}`,
        );
        assert.equal(calls, 0, 'tryUpdate ran although a precondition failed');
        assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'second' });
      }));
  }
  await t.test('both met', () =>
    withStores(async (f) => {
      const created = await createA(f);
      const preconditions = { uid: 'uid-1', resourceVersion: created.metadata?.resourceVersion ?? '' };
      await f.store('', 'configmaps').update('ns1', 'a', setData({ k: 'changed' }), { ...WRITE, preconditions });
      assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'changed' });
    }));
});

test('systemUpdate skips the strategy: a pod is bound to a node only past its update rules', () =>
  withStores(async (f) => {
    const pods = f.store('', 'pods');
    await pods.create('ns1', pod('p'), WRITE);
    const bind = (current: KubeObject): KubeObject => ({ ...current, spec: { ...(current['spec'] as object), nodeName: 'node-1' } });
    await rejectsWith(pods.update('ns1', 'p', bind, WRITE), 422, 'Invalid', /^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than .*\n\+ spec\.nodeName: "node-1"$/s);
    const { object } = await pods.update('ns1', 'p', bind, { ...WRITE, systemUpdate: true });
    assert.equal((object['spec'] as { nodeName?: string }).nodeName, 'node-1');
    assert.equal(((await stored(f, '/registry/pods/ns1/p'))?.['spec'] as { nodeName?: string }).nodeName, 'node-1');
  }));

test('an update of an absent object is 404 and tryUpdate never runs', () =>
  withStores(async (f) => {
    let calls = 0;
    const tryUpdate = (current: KubeObject): KubeObject => {
      calls++;
      return current;
    };
    await rejectsWith(f.store('', 'configmaps').update('ns1', 'nope', tryUpdate, WRITE), 404, 'NotFound', 'configmaps "nope" not found');
    assert.equal(calls, 0);
  }));

test('PUT with a stale resourceVersion is 409 Conflict', () =>
  withStores(async (f) => {
    const created = await createA(f);
    const configMaps = f.store('', 'configmaps');
    await configMaps.update('ns1', 'a', setData({ k: 'second' }), WRITE);
    await rejectsWith(configMaps.replace('ns1', 'a', { ...created, data: { k: 'stale' } }, WRITE), 409, 'Conflict', MODIFIED);
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'second' });
  }));

test('PUT of an absent object creates it only where the type allows it', () =>
  withStores(async (f) => {
    const before = await f.storage.currentRevision();
    await rejectsWith(f.store('', 'configmaps').replace('ns1', 'a', configMap('a'), WRITE), 404, 'NotFound', 'configmaps "a" not found');
    assert.equal(await f.storage.currentRevision(), before);
    // Leases allow create on update (upstream's AllowCreateOnUpdate).
    const lease = { metadata: { name: 'l' }, spec: { holderIdentity: 'me' } };
    const { object, created } = await f.store('coordination.k8s.io', 'leases').replace('ns1', 'l', lease, WRITE);
    assert.equal(created, true);
    assert.equal(object.metadata?.uid, 'uid-1');
    assert.deepEqual(await stored(f, '/registry/coordination.k8s.io/leases/ns1/l'), object);
  }));

test('concurrent updates of one object all land, however many rounds each loses', () =>
  withStores(async (f) => {
    await createA(f, { start: 'yes' });
    const configMaps = f.store('', 'configmaps');
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    await Promise.all(keys.map((key) => configMaps.update('ns1', 'a', (c) => ({ ...c, data: { ...(c['data'] as object), [key]: key } }), WRITE)));
    assert.deepEqual(Object.keys((await stored(f, CM_KEY))?.['data'] as object).sort(), ['start', ...keys].sort());
  }));
