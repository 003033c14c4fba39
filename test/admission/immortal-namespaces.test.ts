/**
 * Namespaces that may never be deleted. Upstream refuses them in NamespaceLifecycle
 * (k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go, immortalNamespaces =
 * default, kube-system, kube-public); Capstan in the namespace strategy's checkDelete, which the
 * store runs on every delete, dry runs included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith, stored, withStores, WRITE } from '../registry/store/store-fixture.js';

for (const name of ['default', 'kube-system', 'kube-public']) {
  test(`deleting the ${name} namespace is 403 and leaves it Active, also as a dry run`, () =>
    withStores(async (f) => {
      const namespaces = f.store('', 'namespaces');
      await namespaces.create('', { metadata: { name } }, WRITE);
      const message = `namespaces "${name}" is forbidden: this namespace may not be deleted`;
      for (const dryRun of [false, true]) {
        const err = await rejectsWith(namespaces.delete('', name, { dryRun }), 403, 'Forbidden', message);
        assert.deepEqual(err.details, { name, kind: 'namespaces' });
      }
      const after = await stored(f, `/registry/namespaces/${name}`);
      assert.equal(after?.metadata?.deletionTimestamp, undefined);
      assert.deepEqual(after?.['status'], { phase: 'Active' });
    }));
}

test('kube-node-lease is not immortal: it can be deleted like any other namespace', () =>
  withStores(async (f) => {
    const namespaces = f.store('', 'namespaces');
    await namespaces.create('', { metadata: { name: 'kube-node-lease' } }, WRITE);
    const { object } = await namespaces.delete('', 'kube-node-lease', { dryRun: false });
    assert.deepEqual(object['status'], { phase: 'Terminating' });
  }));
