import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors.js';
import { created, ctx, messages, strategy, updated } from './fixtures.js';

const namespaces = () => strategy('', 'namespaces');

test('a new namespace is Active, carries the kubernetes finalizer and its name label (as the golden object)', () => {
  const ns = created(namespaces(), { metadata: { name: 'golden' } });
  assert.deepEqual(ns, {
    metadata: { name: 'golden', labels: { 'kubernetes.io/metadata.name': 'golden' } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });
});

test('create keeps other finalizers and adds kubernetes once; a client-set status is replaced', () => {
  const ns = created(namespaces(), { metadata: { name: 'a' }, spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } });
  assert.deepEqual(ns['spec'], { finalizers: ['example.com/x', 'kubernetes'] });
  assert.deepEqual(ns['status'], { phase: 'Active' });
});

test('main-resource updates keep status, spec.finalizers and the name label', () => {
  const old = created(namespaces(), { metadata: { name: 'a' } });
  const ns = updated(namespaces(), { metadata: { name: 'a', labels: { team: 'x' } }, spec: { finalizers: [] }, status: { phase: 'Terminating' } }, old);
  assert.deepEqual(ns['spec'], { finalizers: ['kubernetes'] });
  assert.deepEqual(ns['status'], { phase: 'Active' });
  assert.deepEqual(ns.metadata?.labels, { team: 'x', 'kubernetes.io/metadata.name': 'a' });
});

test('the finalize subresource changes spec.finalizers only', () => {
  const old = created(namespaces(), { metadata: { name: 'a' } });
  const ns = updated(
    namespaces(),
    { metadata: { name: 'a', labels: { sneaky: 'yes' } }, spec: { finalizers: [] }, status: { phase: 'Gone' } },
    old,
    ctx({ subresource: 'finalize' }),
  );
  assert.deepEqual(ns['spec'], { finalizers: [] });
  assert.deepEqual(ns['status'], { phase: 'Active' });
  assert.deepEqual(ns.metadata?.labels, { 'kubernetes.io/metadata.name': 'a' });
});

test('the status subresource changes status only', () => {
  const old = created(namespaces(), { metadata: { name: 'a' } });
  const ns = updated(namespaces(), { metadata: { name: 'a' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } }, old, ctx({ subresource: 'status' }));
  assert.deepEqual(ns['spec'], { finalizers: ['kubernetes'] });
  assert.deepEqual(ns['status'], { phase: 'Terminating' });
});

test('spec.finalizers hold the namespace; deletion turns it Terminating', () => {
  const s = namespaces();
  const ns = created(s, { metadata: { name: 'a' } });
  assert.equal(s.hasPendingFinalizers(ns), true);
  s.prepareForDeletion(ns);
  assert.deepEqual(ns['status'], { phase: 'Terminating' });
  assert.equal(s.hasPendingFinalizers({ metadata: { name: 'a' }, spec: { finalizers: [] } }), false);
  assert.equal(s.hasPendingFinalizers({ metadata: { name: 'a' } }), false);
});

test('default, kube-system and kube-public may not be deleted', () => {
  const s = namespaces();
  for (const name of ['default', 'kube-system', 'kube-public']) {
    assert.throws(
      () => s.checkDelete?.({ metadata: { name } }),
      (err: unknown) =>
        err instanceof ApiError && err.code === 403 && err.reason === 'Forbidden' && err.message === `namespaces "${name}" is forbidden: this namespace may not be deleted`,
    );
  }
  assert.doesNotThrow(() => s.checkDelete?.({ metadata: { name: 'team-a' } }));
});

test('finalizer names must be standard or qualified', () => {
  const s = namespaces();
  const ns = created(s, { metadata: { name: 'a' }, spec: { finalizers: ['bogus'] } });
  assert.deepEqual(messages(s.validate(ns, ctx())), [
    'spec.finalizers: Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified',
  ]);
});

test('namespace names are DNS-1123 labels', () => {
  assert.deepEqual(namespaces().validateName('a.b', false), ['label']);
  assert.deepEqual(namespaces().validateName('team-a', false), []);
});
