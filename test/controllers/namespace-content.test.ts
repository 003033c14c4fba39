/**
 * The namespace controller empties a namespace being deleted, as upstream's
 * pkg/controller/namespace/deletion/namespaced_resources_deleter.go (deleteAllContent), and only
 * then lets the namespace go.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configMap, deployment, pod, stored, withStores, WRITE, type StoreFixture } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';
import { createNamespace, deleteNamespace, storedNamespace, withNamespaceController } from './controller-fixture.js';

const HOLD = 'example.com/hold';

/** One object of each namespaced type of the fixture, in `namespace`; returns their keys. */
async function fill(f: StoreFixture, namespace: string): Promise<string[]> {
  await f.store('', 'configmaps').create(namespace, configMap('a'), WRITE);
  await f.store('', 'pods').create(namespace, pod('p'), WRITE);
  await f.store('', 'serviceaccounts').create(namespace, { metadata: { name: 'sa' } }, WRITE);
  await f.store('apps', 'deployments').create(namespace, deployment('d'), WRITE);
  await f.store('coordination.k8s.io', 'leases').create(namespace, { metadata: { name: 'l' }, spec: {} }, WRITE);
  return [
    `/registry/configmaps/${namespace}/a`,
    `/registry/pods/${namespace}/p`,
    `/registry/serviceaccounts/${namespace}/sa`,
    `/registry/apps/deployments/${namespace}/d`,
    `/registry/coordination.k8s.io/leases/${namespace}/l`,
  ];
}

async function allGone(f: StoreFixture, keys: readonly string[]): Promise<boolean> {
  for (const key of keys) if (await stored(f, key)) return false;
  return true;
}

test('a deleted namespace is emptied of every type, then goes itself; other namespaces keep theirs', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    await createNamespace(f, 'other');
    const content = await fill(f, 'team');
    const kept = await fill(f, 'other');
    await withNamespaceController(f, async () => {
      await deleteNamespace(f, 'team');
      await eventually('namespace team is gone', async () => !(await storedNamespace(f, 'team')));
    });
    assert.ok(await allGone(f, content), 'the namespace went before its content');
    for (const key of kept) assert.ok(await stored(f, key), `${key} went with another namespace`);
    assert.deepEqual((await storedNamespace(f, 'other'))?.['status'], { phase: 'Active' });
  }));

test('a namespace already Terminating when the controller starts is finished', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    const content = await fill(f, 'team');
    await deleteNamespace(f, 'team');
    await withNamespaceController(f, async () => {
      await eventually('namespace team is gone', async () => !(await storedNamespace(f, 'team')));
    });
    assert.ok(await allGone(f, content));
  }));

test('objects that finalizers hold keep the namespace until the last finalizer is removed', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('team', configMap('held', { k: 'v' }, { finalizers: [HOLD] }), WRITE);
    await withNamespaceController(f, async (run) => {
      await deleteNamespace(f, 'team');
      await eventually('the held ConfigMap is marked', async () => !!(await stored(f, '/registry/configmaps/team/held'))?.metadata?.deletionTimestamp);
      // Let a whole pass end after the one that marked it: the held object must still count.
      const marked = run.passes();
      await eventually('another cleaning pass ends', () => run.passes() > marked + 1);
      const spec = (await storedNamespace(f, 'team'))?.['spec'] as { finalizers?: string[] } | undefined;
      assert.deepEqual(spec?.finalizers, ['kubernetes']);

      await configMaps.update('team', 'held', (current) => ({ ...current, metadata: { ...current.metadata, finalizers: [] } }), WRITE);
      await eventually('namespace team is gone', async () => !(await storedNamespace(f, 'team')));
    });
  }));

test('an Active namespace is left alone', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    const content = await fill(f, 'team');
    await withNamespaceController(f, async () => {
      // The controller sees namespaces in the order of their events; once `later`, deleted after
      // team's last change, is gone, team's events have been seen and passed over.
      await createNamespace(f, 'later');
      await deleteNamespace(f, 'later');
      await eventually('namespace later is gone', async () => !(await storedNamespace(f, 'later')));
    });
    for (const key of content) assert.ok(await stored(f, key), `${key} was deleted`);
  }));

test('a scheduled pod goes at once, a deliberate difference from upstream', () =>
  withStores(async (f) => {
    // Upstream's deleteCollection leaves a pod bound to a node its terminationGracePeriodSeconds
    // for the kubelet to end it. This server has no kubelet: such a pod, and its namespace, would
    // never go, so the controller deletes with a grace period of 0.
    await createNamespace(f, 'team');
    await f.store('', 'pods').create('team', pod('p', 'node-1'), WRITE);
    await withNamespaceController(f, async () => {
      await deleteNamespace(f, 'team');
      await eventually('the pod is gone', async () => !(await stored(f, '/registry/pods/team/p')));
    });
  }));
