/**
 * What the namespace controller does when a type cannot be cleaned. Upstream:
 * pkg/controller/namespace/deletion/namespaced_resources_deleter.go, deleteAllContent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configMap, stored, withStores, WRITE } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';
import { createNamespace, deleteNamespace, namespacedStores, storedNamespace, UnlistableStore, withNamespaceController } from './controller-fixture.js';

const CM = '/registry/configmaps/team/a';

test('a type that cannot be listed is logged, keeps the namespace, and is tried again', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    const stores = [...namespacedStores(f), new UnlistableStore(f.store('coordination.k8s.io', 'leases'), 'leases are unavailable')];
    await withNamespaceController(
      f,
      async (run) => {
        await deleteNamespace(f, 'team');
        await eventually('a third pass begins', () => run.passes() > 2);
        assert.equal(run.logs[0], 'namespace controller: cleaning namespace team: leases are unavailable');
        assert.ok(await storedNamespace(f, 'team'), 'the namespace went although a type was never cleaned');
      },
      stores,
    );
  }));

test(
  'a type that cannot be cleaned does not keep the other types from being cleaned',
  () =>
    withStores(async (f) => {
      // Upstream's deleteAllContent holds on to each type's error and goes on with the rest
      // ("If there is an error, hold on to it but proceed with all the remaining groupVersionResources").
      await createNamespace(f, 'team');
      await f.store('', 'configmaps').create('team', configMap('a'), WRITE);
      const stores = [new UnlistableStore(f.store('coordination.k8s.io', 'leases'), 'leases are unavailable'), ...namespacedStores(f)];
      await withNamespaceController(
        f,
        async (run) => {
          await deleteNamespace(f, 'team');
          await eventually('a first pass ends', () => run.passes() > 1);
          assert.equal(await stored(f, CM), undefined, 'the ConfigMap is still there');
        },
        stores,
      );
    }),
);
