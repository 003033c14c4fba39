/**
 * NamespaceLifecycle's answers, compared with upstream's
 * k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go (Lifecycle.Admit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceRef } from '../../src/api/errors.js';
import { NamespaceLifecycle, type NamespaceReader } from '../../src/admission/namespace-lifecycle.js';
import type { KubeObject } from '../../src/registry/object.js';
import { rejectsWith } from '../registry/store/store-fixture.js';

const CONFIG_MAP: ResourceRef = { resource: 'configmaps', group: '', name: 'a' };
const ACTIVE: KubeObject = { metadata: { name: 'team' }, status: { phase: 'Active' } };
const TERMINATING: KubeObject = { metadata: { name: 'team', deletionTimestamp: '2026-01-02T03:04:05Z' }, status: { phase: 'Terminating' } };

/** A reader that answers from two fixed views, the cache's and the store's, and records each call. */
function reader(cached: KubeObject | undefined, current: KubeObject | undefined): NamespaceReader & { calls: [string, boolean][] } {
  const calls: [string, boolean][] = [];
  return Object.assign(
    async (name: string, consistent: boolean) => {
      calls.push([name, consistent]);
      return consistent ? current : cached;
    },
    { calls },
  );
}

test('a create in an Active namespace is admitted after one cached read', async () => {
  const read = reader(ACTIVE, ACTIVE);
  await new NamespaceLifecycle(read).checkCreate('team', CONFIG_MAP);
  assert.deepEqual(read.calls, [['team', false]]);
});

test('a namespace the cache has not seen yet is read from the store before a create is refused', async () => {
  // Upstream waits 50 ms for its informer, then falls back to a live GET (missingNamespaceWait).
  const read = reader(undefined, ACTIVE);
  await new NamespaceLifecycle(read).checkCreate('team', CONFIG_MAP);
  assert.deepEqual(read.calls, [['team', false], ['team', true]]);
});

test('a create in a missing namespace is 404 for the namespace, as the live GET upstream returns', async () => {
  const err = await rejectsWith(Promise.resolve(new NamespaceLifecycle(reader(undefined, undefined)).checkCreate('team', CONFIG_MAP)), 404, 'NotFound', 'namespaces "team" not found');
  assert.deepEqual(err.details, { name: 'team', kind: 'namespaces' });
});

const TERMINATING_CASES: { name: string; ref: ResourceRef; message: string; details: object }[] = [
  {
    name: 'a core resource',
    ref: CONFIG_MAP,
    message: 'configmaps "a" is forbidden: unable to create new content in namespace team because it is being terminated',
    details: { name: 'a', kind: 'configmaps' },
  },
  {
    name: 'a grouped resource',
    ref: { resource: 'deployments', group: 'apps', name: 'd' },
    message: 'deployments.apps "d" is forbidden: unable to create new content in namespace team because it is being terminated',
    details: { name: 'd', group: 'apps', kind: 'deployments' },
  },
];

for (const c of TERMINATING_CASES) {
  test(`a create of ${c.name} in a terminating namespace is 403 with the NamespaceTerminating cause`, async () => {
    // admission.NewForbidden(a, err) plus the cause Admit appends (v1.NamespaceTerminatingCause).
    const err = await rejectsWith(Promise.resolve(new NamespaceLifecycle(reader(TERMINATING, TERMINATING)).checkCreate('team', c.ref)), 403, 'Forbidden', c.message);
    assert.deepEqual(err.details, {
      ...c.details,
      causes: [{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }],
    });
  });
}

test('a cached namespace is trusted: a Terminating phase only in the store is not seen', async () => {
  // Upstream trusts its informer too, except for 30 s after it admitted the namespace's own
  // DELETE (forceLiveLookupCache). Capstan's gate only sees creates, so it keeps no such window.
  const read = reader(ACTIVE, TERMINATING);
  await new NamespaceLifecycle(read).checkCreate('team', CONFIG_MAP);
  assert.deepEqual(read.calls, [['team', false]]);
});

test('a namespace the cache holds now is checked at once, without a read', () => {
  const read = reader(undefined, undefined);
  assert.equal(new NamespaceLifecycle(read, () => ACTIVE).checkCreate('team', CONFIG_MAP), undefined);
  assert.throws(() => new NamespaceLifecycle(read, () => TERMINATING).checkCreate('team', CONFIG_MAP), { code: 403, reason: 'Forbidden' });
  assert.deepEqual(read.calls, []);
});
