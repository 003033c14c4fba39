import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { loadBuiltinCatalog } from '../../src/registry/catalog/builtin-catalog.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../../src/discovery/legacy-discovery.js';
import { aggregatedDiscovery, discoveryETag } from '../../src/discovery/aggregated-discovery.js';
import type { APIGroupDiscoveryList } from '../../src/discovery/discovery-types.js';
import { referenceDir } from '../reference-files.js';

const catalog = loadBuiltinCatalog();
const discoveryDir = `${referenceDir}discovery-1.32`;
const reference = (name: string): unknown => JSON.parse(readFileSync(`${discoveryDir}/${name}`, 'utf8'));

// What upstream 1.35 serves by default beyond the 1.32 capture.
const NEW_GROUPS = ['resource.k8s.io'];
const NEW_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  'networking.k8s.io/v1': ['ipaddresses', 'servicecidrs'],
  'storage.k8s.io/v1': ['volumeattributesclasses'],
};

/** Compares with key order, which JSON.stringify of parsed documents preserves. */
function assertSameJson(actual: unknown, expected: unknown): void {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

test('/api matches the capture', () => {
  assertSameJson(apiVersions(catalog, '127.0.0.1:6443'), reference('api.json'));
});

test('/apis matches the capture plus the 1.35 groups', () => {
  const expected = reference('apis.json') as { groups: { name: string }[] };
  const actual = apiGroupList(catalog);
  const known = new Set(expected.groups.map((g) => g.name));
  assert.deepEqual(actual.groups.filter((g) => !known.has(g.name)).map((g) => g.name), NEW_GROUPS);
  assertSameJson({ ...actual, groups: actual.groups.filter((g) => known.has(g.name)) }, expected);
});

test('every /api/v1 and /apis/{group}/{version} matches the capture plus the 1.35 resources', () => {
  const files = readdirSync(discoveryDir).filter((f) => f === 'api_v1.json' || /^apis_.+_v[^_]+\.json$/.test(f));
  assert.ok(files.length > 20);
  for (const file of files) {
    const expected = reference(file) as { groupVersion: string; resources: { name: string }[] };
    const [group, version] = expected.groupVersion.includes('/') ? expected.groupVersion.split('/') : ['', expected.groupVersion];
    const actual = apiResourceList(catalog, group!, version!);
    assert.ok(actual, expected.groupVersion);
    const known = new Set(expected.resources.map((r) => r.name));
    const added = [...new Set(actual.resources.filter((r) => !known.has(r.name)).map((r) => r.name.split('/')[0]))];
    assert.deepEqual(added, NEW_RESOURCES[expected.groupVersion] ?? [], expected.groupVersion);
    assertSameJson({ ...actual, resources: actual.resources.filter((r) => known.has(r.name)) }, expected);
  }
});

function withoutAdditions(list: APIGroupDiscoveryList, expected: APIGroupDiscoveryList): APIGroupDiscoveryList {
  const knownGroups = new Set(expected.items.map((i) => i.metadata.name ?? ''));
  const items = list.items
    .filter((i) => knownGroups.has(i.metadata.name ?? ''))
    .map((item) => ({
      ...item,
      versions: item.versions.map((v) => {
        const added = NEW_RESOURCES[`${item.metadata.name}/${v.version}`] ?? [];
        return { ...v, resources: v.resources.filter((r) => !added.includes(r.resource)) };
      }),
    }));
  return { ...list, items };
}

test('aggregated /api and /apis match the capture plus the 1.35 additions', () => {
  for (const [root, file] of [['api', 'aggregated_api.json'], ['apis', 'aggregated_apis.json']] as const) {
    const expected = reference(file) as APIGroupDiscoveryList;
    const actual = aggregatedDiscovery(catalog, root);
    assertSameJson(withoutAdditions(actual, expected), expected);
  }
  const names = aggregatedDiscovery(catalog, 'apis').items.map((i) => i.metadata.name);
  assert.ok(names.includes('resource.k8s.io'));
});

test('/apis/{group} names the group and its preferred version', () => {
  assert.deepEqual(apiGroup(catalog, 'autoscaling'), {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: 'autoscaling',
    versions: [{ groupVersion: 'autoscaling/v2', version: 'v2' }, { groupVersion: 'autoscaling/v1', version: 'v1' }],
    preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
  });
  assert.equal(apiGroup(catalog, 'nope.example.com'), undefined);
  assert.equal(apiGroup(catalog, ''), undefined);
  assert.equal(apiResourceList(catalog, 'apps', 'v1beta1'), undefined);
});

test('v2beta1 differs only in apiVersion, and the ETag is a quoted SHA-512', () => {
  const v2 = aggregatedDiscovery(catalog, 'apis', 'v2');
  const beta = aggregatedDiscovery(catalog, 'apis', 'v2beta1');
  assert.equal(beta.apiVersion, 'apidiscovery.k8s.io/v2beta1');
  assert.deepEqual({ ...beta, apiVersion: v2.apiVersion }, v2);
  const etag = discoveryETag(JSON.stringify(v2));
  assert.match(etag, /^"[0-9A-F]{128}"$/);
  assert.equal(discoveryETag(JSON.stringify(v2)), etag);
});
