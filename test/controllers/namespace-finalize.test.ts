/**
 * How the namespace controller lets go of an emptied namespace: through the `finalize`
 * subresource, removing its own `kubernetes` entry from spec.finalizers, as upstream's
 * pkg/controller/namespace/deletion/namespaced_resources_deleter.go (Delete, finalizeNamespace).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/registry/object.js';
import { configMap, stored, withStores, WRITE } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';
import { createNamespace, deleteNamespace, storedNamespace, withNamespaceController } from './controller-fixture.js';

function finalizersOf(namespace: KubeObject | undefined): string[] | undefined {
  return (namespace?.['spec'] as { finalizers?: string[] } | undefined)?.finalizers;
}

test('only the kubernetes finalizer is removed: the others keep the namespace Terminating', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team', { finalizers: ['kubernetes', 'example.com/keep'] });
    await withNamespaceController(f, async () => {
      await deleteNamespace(f, 'team');
      await eventually('the kubernetes finalizer is removed', async () => !finalizersOf(await storedNamespace(f, 'team'))?.includes('kubernetes'));
    });
    const after = await storedNamespace(f, 'team');
    assert.deepEqual(finalizersOf(after), ['example.com/keep']);
    assert.equal((after?.['status'] as { phase?: string } | undefined)?.phase, 'Terminating');
  }));

test(
  'the finalizers left are written as a sorted set',
  () =>
    withStores(async (f) => {
      // finalizeNamespace collects the other finalizers in a sets.String and writes
      // finalizerSet.List(), which is sorted.
      await createNamespace(f, 'team', { finalizers: ['kubernetes', 'z.example.com/last', 'a.example.com/first'] });
      await withNamespaceController(f, async () => {
        await deleteNamespace(f, 'team');
        await eventually('the kubernetes finalizer is removed', async () => !finalizersOf(await storedNamespace(f, 'team'))?.includes('kubernetes'));
      });
      assert.deepEqual(finalizersOf(await storedNamespace(f, 'team')), ['a.example.com/first', 'z.example.com/last']);
    }),
);

test(
  'content is deleted while any spec finalizer holds the namespace, also once kubernetes was removed',
  () =>
    withStores(async (f) => {
      // Upstream's Delete returns early only when spec.finalizers is empty (finalized()); otherwise it
      // runs deleteAllContent whether or not its own token is still in the list.
      await createNamespace(f, 'team', { finalizers: ['kubernetes', 'example.com/keep'] });
      await f.store('', 'namespaces').update('', 'team', (current) => ({ ...current, spec: { finalizers: ['example.com/keep'] } }), { dryRun: false, subresource: 'finalize' });
      await f.store('', 'configmaps').create('team', configMap('a'), WRITE);
      await createNamespace(f, 'later');
      await withNamespaceController(f, async (run) => {
        await deleteNamespace(f, 'team');
        await deleteNamespace(f, 'later');
        // The controller takes up namespaces in the order of their events: by the time `later` (empty)
        // is gone, a pass over team has begun too, unless team was passed over.
        await eventually('namespace later is gone', async () => !(await storedNamespace(f, 'later')));
        assert.ok(run.passes() > 1, 'no cleaning pass ever began for namespace team');
        await eventually('the ConfigMap in team is deleted', async () => !(await stored(f, '/registry/configmaps/team/a')));
      });
    }),
);
