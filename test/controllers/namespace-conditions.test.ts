/**
 * The deletion conditions upstream's namespace controller writes on a Terminating namespace after
 * every cleaning pass: pkg/controller/namespace/deletion/namespaced_resources_deleter.go
 * (deleteAllContent ends with conditionUpdater.Update and UpdateStatus) and status_condition_utils.go
 * (the types, reasons and messages).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/registry/object.js';
import { configMap, stored, withStores, WRITE } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';
import { createNamespace, deleteNamespace, namespacedStores, storedNamespace, UnlistableStore, withNamespaceController } from './controller-fixture.js';

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** status_condition_utils.go: a condition that is not failing is written False with its ok reason. */
const ALL_CLEAR: readonly Condition[] = [
  { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
  { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
];

/** The namespace's conditions without their lastTransitionTime (upstream stamps it from its own clock). */
function conditionsOf(namespace: KubeObject | undefined): Condition[] | undefined {
  const conditions = (namespace?.['status'] as { conditions?: (Condition & { lastTransitionTime?: string })[] } | undefined)?.conditions;
  return conditions?.map(({ lastTransitionTime, ...rest }) => {
    assert.equal(typeof lastTransitionTime, 'string', `${rest.type} has no lastTransitionTime`);
    return rest;
  });
}

/** ALL_CLEAR with some conditions replaced. */
function allClearBut(...failing: Condition[]): Condition[] {
  return ALL_CLEAR.map((c) => failing.find((x) => x.type === c.type) ?? c);
}

test('an emptied namespace carries the five deletion conditions, all False', () =>
  withStores(async (f) => {
    // A second finalizer keeps the namespace after the controller is done with it, so its status
    // can still be read. Upstream writes the conditions before it removes its finalizer.
    await createNamespace(f, 'team', { finalizers: ['kubernetes', 'example.com/keep'] });
    await f.store('', 'configmaps').create('team', configMap('a'), WRITE);
    await withNamespaceController(f, async () => {
      await deleteNamespace(f, 'team');
      await eventually('the kubernetes finalizer is removed', async () => {
        const spec = (await storedNamespace(f, 'team'))?.['spec'] as { finalizers?: string[] } | undefined;
        return !spec?.finalizers?.includes('kubernetes');
      });
    });
    assert.deepEqual(conditionsOf(await storedNamespace(f, 'team')), ALL_CLEAR);
  }));

test('content that finalizers hold is named in NamespaceContentRemaining and NamespaceFinalizersRemaining', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    await f.store('', 'configmaps').create('team', configMap('held', { k: 'v' }, { finalizers: ['example.com/hold'] }), WRITE);
    await withNamespaceController(f, async (run) => {
      await deleteNamespace(f, 'team');
      await eventually('the held ConfigMap is marked', async () => !!(await stored(f, '/registry/configmaps/team/held'))?.metadata?.deletionTimestamp);
      const marked = run.passes();
      await eventually('the pass that marked it ends', () => run.passes() > marked);
      // ProcessContentTotals: "<resource>.<group> has N resource instances" (the core group is
      // empty, hence "configmaps."), "<finalizer> in N resource instances".
      assert.deepEqual(
        conditionsOf(await storedNamespace(f, 'team')),
        allClearBut(
          { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' },
          {
            type: 'NamespaceFinalizersRemaining',
            status: 'True',
            reason: 'SomeFinalizersRemain',
            message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
          },
        ),
      );
    });
  }));

test('a type that cannot be cleaned sets NamespaceDeletionContentFailure', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    const stores = [new UnlistableStore(f.store('coordination.k8s.io', 'leases'), 'leases are unavailable'), ...namespacedStores(f)];
    await withNamespaceController(
      f,
      async (run) => {
        await deleteNamespace(f, 'team');
        await eventually('a first pass ends', () => run.passes() > 1);
        const failure = conditionsOf(await storedNamespace(f, 'team'))?.find((c) => c.type === 'NamespaceDeletionContentFailure');
        // makeDeleteContentCondition: "Failed to delete all resource types, N remaining: <errors>".
        assert.equal(failure?.status, 'True');
        assert.equal(failure?.reason, 'ContentDeletionFailed');
        assert.match(failure?.message ?? '', /^Failed to delete all resource types, 1 remaining: .*leases are unavailable/);
      },
      stores,
    );
  }));
