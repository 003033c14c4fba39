/** The generic store's delete: immediate or two-phase, as upstream's Store.Delete and rest.BeforeDelete. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timestamp, type KubeObject } from '../../../src/registry/object.js';
import { CM_KEY, configMap, deployment, NOW, NOW_STAMP, pod, rejectsWith, stored, withStores, WRITE, type StoreFixture } from './store-fixture.js';

const POD_KEY = '/registry/pods/ns1/p';
const DELETE = { dryRun: false };
const HOLD = 'example.com/hold';

async function createPod(f: StoreFixture, nodeName?: string): Promise<KubeObject> {
  return f.store('', 'pods').create('ns1', pod('p', nodeName), WRITE);
}

test('an object nothing holds is removed at once', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a'), WRITE);
    const { object, deleted } = await configMaps.delete('ns1', 'a', DELETE);
    assert.equal(deleted, true);
    assert.equal(object.metadata?.resourceVersion, String(await f.storage.currentRevision()), 'not the delete\'s revision');
    assert.equal(object.metadata?.deletionTimestamp, undefined);
    assert.equal((await f.storage.get(CM_KEY)).kv, undefined);
  }));

test('finalizers make delete two-phase: marked and kept, then removed with the last finalizer', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a', { k: 'v' }, { finalizers: [HOLD] }), WRITE);
    const first = await configMaps.delete('ns1', 'a', DELETE);
    assert.equal(first.deleted, false);
    assert.equal(first.object.metadata?.deletionTimestamp, NOW_STAMP);
    assert.equal(first.object.metadata?.deletionGracePeriodSeconds, 0);
    assert.deepEqual(await stored(f, CM_KEY), first.object);

    // A second delete while held changes nothing (the deletionTimestamp stays the first one).
    f.advance(60_000);
    const second = await configMaps.delete('ns1', 'a', DELETE);
    assert.equal(second.deleted, false);
    assert.equal(second.object.metadata?.deletionTimestamp, NOW_STAMP);
    assert.equal(second.object.metadata?.resourceVersion, first.object.metadata?.resourceVersion);

    const released = await configMaps.update('ns1', 'a', (current) => ({ ...current, metadata: { ...current.metadata, finalizers: [] } }), WRITE);
    assert.equal(released.deleted, true);
    assert.equal((await f.storage.get(CM_KEY)).kv, undefined);
  }));

test('a Namespace is held by its spec.finalizers and turns Terminating', () =>
  withStores(async (f) => {
    const namespaces = f.store('', 'namespaces');
    await namespaces.create('', { metadata: { name: 'team' } }, WRITE);
    const { object, deleted } = await namespaces.delete('', 'team', DELETE);
    assert.equal(deleted, false);
    assert.equal(object.metadata?.deletionTimestamp, NOW_STAMP);
    assert.deepEqual(object['status'], { phase: 'Terminating' });
    assert.deepEqual((await stored(f, '/registry/namespaces/team'))?.['status'], { phase: 'Terminating' });
  }));

test('the strategy\'s refusal comes before anything is marked: the default namespace is 403', () =>
  withStores(async (f) => {
    const namespaces = f.store('', 'namespaces');
    await namespaces.create('', { metadata: { name: 'default' } }, WRITE);
    await rejectsWith(namespaces.delete('', 'default', DELETE), 403, 'Forbidden', 'namespaces "default" is forbidden: this namespace may not be deleted');
    assert.equal((await stored(f, '/registry/namespaces/default'))?.metadata?.deletionTimestamp, undefined);
  }));

test('a scheduled pod gets the grace period of its spec; a later delete may only shorten it', () =>
  withStores(async (f) => {
    const pods = f.store('', 'pods');
    await createPod(f, 'node-1');
    const graceful = await pods.delete('ns1', 'p', DELETE);
    assert.equal(graceful.deleted, false);
    assert.equal(graceful.object.metadata?.deletionGracePeriodSeconds, 30);
    assert.equal(graceful.object.metadata?.deletionTimestamp, timestamp(NOW + 30_000));
    assert.ok((await f.storage.get(POD_KEY)).kv, 'the pod went before its grace period');

    f.advance(5_000);
    const longer = await pods.delete('ns1', 'p', { ...DELETE, gracePeriodSeconds: 60 });
    assert.equal(longer.object.metadata?.deletionTimestamp, timestamp(NOW + 30_000));
    assert.equal(longer.object.metadata?.deletionGracePeriodSeconds, 30);
    const shorter = await pods.delete('ns1', 'p', { ...DELETE, gracePeriodSeconds: 10 });
    assert.equal(shorter.deleted, false);
    assert.equal(shorter.object.metadata?.deletionGracePeriodSeconds, 10);

    const now = await pods.delete('ns1', 'p', { ...DELETE, gracePeriodSeconds: 0 });
    assert.equal(now.deleted, true);
    assert.equal((await f.storage.get(POD_KEY)).kv, undefined);
  }));

// rest.BeforeDelete moves the deletionTimestamp of a shortened grace period to
// (deletionTimestamp - old grace + new grace): the deletion's start plus the new period.
test('a shortened grace period counts from when the deletion began, as upstream', () =>
  withStores(async (f) => {
    const pods = f.store('', 'pods');
    await createPod(f, 'node-1');
    await pods.delete('ns1', 'p', DELETE);
    f.advance(5_000);
    const shorter = await pods.delete('ns1', 'p', { ...DELETE, gracePeriodSeconds: 10 });
    assert.equal(shorter.object.metadata?.deletionTimestamp, timestamp(NOW + 10_000));
  }));

test('a pod on no node is removed at once', () =>
  withStores(async (f) => {
    await createPod(f);
    assert.equal((await f.store('', 'pods').delete('ns1', 'p', DELETE)).deleted, true);
    assert.equal((await f.storage.get(POD_KEY)).kv, undefined);
  }));

test('delete preconditions on uid and resourceVersion: 409 Conflict, and the object stays', async (t) => {
  for (const held of [false, true]) {
    await t.test(held ? 'held by a finalizer' : 'removed at once', () =>
      withStores(async (f) => {
        const configMaps = f.store('', 'configmaps');
        const created = await configMaps.create('ns1', configMap('a', { k: 'v' }, held ? { finalizers: [HOLD] } : {}), WRITE);
        const rv = created.metadata?.resourceVersion ?? '';
        // The exact wording is the next test's; here, both the asked and the stored value are named.
        const failures = [
          { preconditions: { uid: 'other-uid' }, names: /^Operation cannot be fulfilled on .*other-uid.*uid-1/ },
          { preconditions: { resourceVersion: `${rv}0` }, names: new RegExp(`^Operation cannot be fulfilled on .*${rv}0.*${rv}`) },
        ];
        for (const { preconditions, names } of failures) {
          await rejectsWith(configMaps.delete('ns1', 'a', { ...DELETE, preconditions }), 409, 'Conflict', names);
        }
        assert.deepEqual(await stored(f, CM_KEY), created);
        const result = await configMaps.delete('ns1', 'a', { ...DELETE, preconditions: { uid: 'uid-1', resourceVersion: rv } });
        assert.equal(result.deleted, !held);
      }));
  }
});

// Upstream's Store.Delete checks preconditions first in rest.BeforeDelete, on the kind.
test('delete preconditions fail in the words of upstream\'s rest.BeforeDelete', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    const rv = (await configMaps.create('ns1', configMap('a'), WRITE)).metadata?.resourceVersion ?? '';
    await rejectsWith(
      configMaps.delete('ns1', 'a', { ...DELETE, preconditions: { uid: 'other-uid' } }),
      409,
      'Conflict',
      'Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (other-uid) does not match the UID in record (uid-1). The object might have been deleted and then recreated',
    );
    await rejectsWith(
      configMaps.delete('ns1', 'a', { ...DELETE, preconditions: { resourceVersion: '999' } }),
      409,
      'Conflict',
      `Operation cannot be fulfilled on ConfigMap "a": the ResourceVersion in the precondition (999) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
  }));

// Upstream's markAsDeleting and rest.BeforeDelete add 1 to a positive metadata.generation when
// an object is first marked for deletion.
test('marking an object deleted counts a generation, as upstream', () =>
  withStores(async (f) => {
    const deployments = f.store('apps', 'deployments');
    const created = await deployments.create('ns1', deployment('d', { finalizers: [HOLD] }), WRITE);
    assert.equal(created.metadata?.generation, 1);
    const { object } = await deployments.delete('ns1', 'd', DELETE);
    assert.equal(object.metadata?.generation, 2);
  }));

test('a dry-run delete answers as the real one would and writes nothing', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    const plain = await configMaps.create('ns1', configMap('a'), WRITE);
    const held = await configMaps.create('ns1', configMap('b', { k: 'v' }, { finalizers: [HOLD] }), WRITE);
    const before = await f.storage.currentRevision();
    assert.equal((await configMaps.delete('ns1', 'a', { dryRun: true })).deleted, true);
    const marked = await configMaps.delete('ns1', 'b', { dryRun: true });
    assert.equal(marked.deleted, false);
    assert.equal(marked.object.metadata?.deletionTimestamp, NOW_STAMP);
    assert.equal(await f.storage.currentRevision(), before);
    assert.deepEqual(await stored(f, CM_KEY), plain);
    assert.deepEqual(await stored(f, '/registry/configmaps/ns1/b'), held);
  }));

test('a delete of an absent object is 404', () =>
  withStores(async (f) => {
    await rejectsWith(f.store('', 'configmaps').delete('ns1', 'nope', DELETE), 404, 'NotFound', 'configmaps "nope" not found');
  }));

test('a delete that loses to another writer round after round lands in the end', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a'), WRITE);
    // Another writer changes the object between each of the delete's reads and its write, twelve
    // times (more than the ten rounds a delete used to be allowed).
    let rounds = 0;
    const remove = f.storage.delete.bind(f.storage);
    f.storage.delete = async (key, expected) => {
      if (rounds++ < 12) await configMaps.update('ns1', 'a', (c) => ({ ...c, data: { round: String(rounds) } }), WRITE);
      return remove(key, expected);
    };
    const { deleted } = await configMaps.delete('ns1', 'a', DELETE);
    assert.equal(deleted, true);
    assert.equal(rounds, 13);
    assert.equal((await f.storage.get(CM_KEY)).kv, undefined);
  }));
