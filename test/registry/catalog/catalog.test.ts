import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadBuiltinCatalog, builtinGroupVersions } from '../../../src/registry/catalog/builtin-catalog.js';

const catalog = loadBuiltinCatalog();

test('pods are namespaced Pods with short name po and their subresources', () => {
  const pods = catalog.resource('', 'v1', 'pods');
  assert.ok(pods);
  assert.equal(pods.kind, 'Pod');
  assert.equal(pods.listKind, 'PodList');
  assert.equal(pods.singularName, 'pod');
  assert.equal(pods.namespaced, true);
  assert.deepEqual(pods.shortNames, ['po']);
  assert.deepEqual(pods.categories, ['all']);
  assert.equal(pods.schema, 'io.k8s.api.core.v1.Pod');
  assert.deepEqual(pods.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  assert.deepEqual(Object.keys(pods.subresources), [
    'attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'resize', 'status',
  ]);
  assert.deepEqual(pods.subresources.eviction, {
    name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'], schema: 'io.k8s.api.policy.v1.Eviction',
  });
  assert.deepEqual(pods.subresources.exec?.verbs, ['create', 'get']);
  assert.deepEqual(pods.subresources.log?.verbs, ['get']);
  assert.equal(pods.storageVersionHash, 'xPOwRZ+Yhw8=');
  assert.equal(pods.tableColumns?.[0]?.name, 'Name');
});

test('deployments.apps have a scale subresource answering autoscaling/v1 Scale', () => {
  const deployments = catalog.resource('apps', 'v1', 'deployments');
  assert.deepEqual(deployments?.subresources.scale, {
    name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], schema: 'io.k8s.api.autoscaling.v1.Scale',
  });
  assert.deepEqual(deployments?.shortNames, ['deploy']);
});

test('namespaces are cluster-scoped with finalize and status', () => {
  const ns = catalog.resource('', 'v1', 'namespaces');
  assert.equal(ns?.namespaced, false);
  assert.deepEqual(ns?.subresources.finalize?.verbs, ['update']);
  assert.deepEqual(ns?.subresources.status?.verbs, ['get', 'patch', 'update']);
  assert.ok(!ns?.verbs.includes('deletecollection'));
});

test('lookup by kind', () => {
  assert.equal(catalog.kind('', 'v1', 'ConfigMap')?.resource, 'configmaps');
  assert.equal(catalog.kind('rbac.authorization.k8s.io', 'v1', 'ClusterRole')?.resource, 'clusterroles');
  assert.equal(catalog.kind('', 'v1', 'Nope'), undefined);
});

test('other subresources: token, approval, binding', () => {
  assert.deepEqual(catalog.resource('', 'v1', 'serviceaccounts')?.subresources.token?.group, 'authentication.k8s.io');
  assert.deepEqual(catalog.resource('certificates.k8s.io', 'v1', 'certificatesigningrequests')?.subresources.approval?.verbs, ['get', 'patch', 'update']);
  assert.deepEqual(catalog.resource('', 'v1', 'bindings')?.verbs, ['create']);
});

test('groups in discovery order with preferred versions', () => {
  const groups = catalog.groups();
  assert.equal(groups[0]?.name, 'apiregistration.k8s.io');
  assert.equal(groups[1]?.name, '');
  assert.deepEqual(catalog.group('autoscaling'), { name: 'autoscaling', versions: ['v2', 'v1'], preferredVersion: 'v2' });
  assert.deepEqual(catalog.group('resource.k8s.io')?.versions, ['v1']);
});

test('betas and alphas are off by default and can be enabled', () => {
  assert.equal(catalog.servesGroupVersion('resource.k8s.io', 'v1beta2'), false);
  assert.equal(catalog.servesGroupVersion('storagemigration.k8s.io', 'v1beta1'), false);
  assert.ok(builtinGroupVersions().some((gv) => gv.group === 'resource.k8s.io' && gv.version === 'v1beta2' && !gv.enabledByDefault));
  const all = loadBuiltinCatalog(() => true);
  assert.equal(all.servesGroupVersion('resource.k8s.io', 'v1beta2'), true);
  assert.deepEqual(all.group('resource.k8s.io')?.versions, ['v1', 'v1beta2', 'v1beta1', 'v1alpha3']);
});

test('resources of a group-version are sorted and empty when not served', () => {
  const names = catalog.resources('apps', 'v1').map((r) => r.resource);
  assert.deepEqual(names, ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets']);
  assert.deepEqual(catalog.resources('apps', 'v1beta1'), []);
});

test('extend appends group-versions and refuses duplicates', () => {
  const extended = catalog.extend([{ group: 'example.com', version: 'v1', resources: [] }]);
  assert.equal(extended.groups().at(-1)?.name, 'example.com');
  assert.throws(() => catalog.extend([{ group: 'apps', version: 'v1', resources: [] }]), /listed twice/);
});

test('loading the built-in catalog takes a few milliseconds', () => {
  const start = performance.now();
  loadBuiltinCatalog();
  const elapsed = performance.now() - start;
  assert.ok(elapsed < 50, `took ${elapsed.toFixed(1)} ms`);
});
