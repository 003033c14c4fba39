/**
 * NamespaceLifecycle as the store runs it on a create (src/registry/store/create.ts), over the real
 * registry: what reaches storage, and which verbs it leaves alone. Upstream:
 * k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CM_KEY, configMap, rejectsWith, stored, withStores, WRITE, type StoreFixture } from '../registry/store/store-fixture.js';
import { installNamespaceLifecycle } from './lifecycle-fixture.js';

const TERMINATING_MESSAGE = 'configmaps "a" is forbidden: unable to create new content in namespace ns1 because it is being terminated';

/** Namespace ns1, then (when asked) deleted: its `kubernetes` finalizer keeps it Terminating. */
async function namespaceNs1(f: StoreFixture, terminating: boolean): Promise<void> {
  const namespaces = f.store('', 'namespaces');
  await namespaces.create('', { metadata: { name: 'ns1' } }, WRITE);
  if (terminating) await namespaces.delete('', 'ns1', { dryRun: false });
}

test('a create in an Active namespace is stored', () =>
  withStores(async (f) => {
    installNamespaceLifecycle(f);
    await namespaceNs1(f, false);
    await f.store('', 'configmaps').create('ns1', configMap('a'), WRITE);
    assert.ok(await stored(f, CM_KEY));
  }));

test('a create in a missing namespace is 404 and stores nothing', () =>
  withStores(async (f) => {
    installNamespaceLifecycle(f);
    await rejectsWith(f.store('', 'configmaps').create('ns1', configMap('a'), WRITE), 404, 'NotFound', 'namespaces "ns1" not found');
    assert.equal(await stored(f, CM_KEY), undefined);
  }));

test('a create in a terminating namespace is 403 and stores nothing, also as a dry run', () =>
  withStores(async (f) => {
    installNamespaceLifecycle(f);
    await namespaceNs1(f, true);
    const configMaps = f.store('', 'configmaps');
    await rejectsWith(configMaps.create('ns1', configMap('a'), WRITE), 403, 'Forbidden', TERMINATING_MESSAGE);
    await rejectsWith(configMaps.create('ns1', configMap('a'), { dryRun: true, subresource: '' }), 403, 'Forbidden', TERMINATING_MESSAGE);
    assert.equal(await stored(f, CM_KEY), undefined);
  }));

test('updates and deletes in a terminating namespace are admitted, as upstream lets them through', () =>
  withStores(async (f) => {
    installNamespaceLifecycle(f);
    await namespaceNs1(f, false);
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a'), WRITE);
    await f.store('', 'namespaces').delete('', 'ns1', { dryRun: false });

    await configMaps.update('ns1', 'a', (current) => ({ ...current, data: { k: 'changed' } }), WRITE);
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'changed' });
    const { deleted } = await configMaps.delete('ns1', 'a', { dryRun: false });
    assert.equal(deleted, true);
  }));

test(
  'a generated name is refused under its generateName, as upstream admits before the name is generated',
  () =>
    withStores(async (f) => {
      // Upstream's create handler runs mutating admission (NamespaceLifecycle is one) before
      // rest.BeforeCreate generates the name; admission.NewForbidden then takes the generateName
      // (k8s.io/apiserver/pkg/admission/errors.go, extractResourceName).
      installNamespaceLifecycle(f);
      await namespaceNs1(f, true);
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' }, data: { k: 'v' } };
      const err = await rejectsWith(
        f.store('', 'configmaps').create('ns1', body, WRITE),
        403,
        'Forbidden',
        'configmaps "gen-" is forbidden: unable to create new content in namespace ns1 because it is being terminated',
      );
      assert.equal(err.details?.name, 'gen-');
    }),
);

test(
  'the namespace is checked before the object is validated: an invalid object in a missing namespace is 404',
  () =>
    withStores(async (f) => {
      // Upstream's create handler (k8s.io/apiserver/pkg/endpoints/handlers/create.go) runs mutating
      // admission, NamespaceLifecycle among it, before the store's BeforeCreate validates.
      installNamespaceLifecycle(f);
      await rejectsWith(f.store('', 'configmaps').create('ns1', configMap('a', { 'not a key': 'v' }), WRITE), 404, 'NotFound', 'namespaces "ns1" not found');
    }),
);
