import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIncludeObject, toTable, type TableSource } from '../../../src/endpoints/table/to-table.js';
import { NOW, ago, definition } from './table-fixtures.js';

const role = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'reader', namespace: 'ns', resourceVersion: '42', uid: 'u1', creationTimestamp: '2026-11-21T08:00:00Z' },
  rules: [],
};

const noColumns: TableSource = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget' };

test('default table: Name and Created At, the timestamp in RFC 3339', () => {
  const table = toTable(noColumns, [{ metadata: { name: 'w', creationTimestamp: '2026-11-21T08:00:00.000Z' } }], {
    includeObject: 'None',
    now: NOW,
    groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.columnDefinitions?.map((c) => [c.name, c.type, c.format, c.priority]), [
    ['Name', 'string', 'name', 0],
    ['Created At', 'date', '', 0],
  ]);
  assert.deepEqual(table.rows?.[0].cells, ['w', '2026-11-21T08:00:00Z']);
});

test('default table: a missing creation timestamp prints as Go zero time', () => {
  const table = toTable(noColumns, [{ metadata: { name: 'w' } }], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  assert.deepEqual(table.rows?.[0].cells, ['w', '0001-01-01T00:00:00Z']);
});

test('default table: an empty list has null rows, as upstream', () => {
  const table = toTable(noColumns, [], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  assert.equal(table.rows, null);
});

test('roles are served with the default table from the catalog', () => {
  const table = toTable(definition('rbac.authorization.k8s.io', 'v1', 'roles'), [role], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.rows?.[0].cells, ['reader', '2026-11-21T08:00:00Z']);
});

test('a single object gives one row and the object resourceVersion', () => {
  const table = toTable(definition('rbac.authorization.k8s.io', 'v1', 'roles'), role, {
    includeObject: 'Metadata', now: NOW, groupVersionSpelling: 'k8s', listMeta: { resourceVersion: 'ignored' },
  });
  assert.equal(table.rows?.length, 1);
  assert.deepEqual(table.metadata, { resourceVersion: '42' });
});

test('list metadata: resourceVersion, continue and remainingItemCount in upstream order', () => {
  const table = toTable(noColumns, [role], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
    listMeta: { remainingItemCount: 7, continue: 'next', resourceVersion: '99' },
  });
  assert.equal(JSON.stringify(table.metadata), '{"resourceVersion":"99","continue":"next","remainingItemCount":7}');
});

test('table keys come in upstream order', () => {
  const table = toTable(noColumns, [role], { includeObject: 'Metadata', now: NOW, groupVersionSpelling: 'k8s' });
  assert.deepEqual(Object.keys(table), ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  assert.deepEqual(Object.keys(table.columnDefinitions?.[0] ?? {}), ['name', 'type', 'format', 'description', 'priority']);
  assert.deepEqual(Object.keys(table.rows?.[0] ?? {}), ['cells', 'object']);
});

test('includeObject=Metadata gives PartialObjectMetadata in the table group-version and spelling', () => {
  for (const [spelling, version, apiVersion] of [
    ['k8s', 'v1', 'meta.k8s.io/v1'],
    ['k8s', 'v1beta1', 'meta.k8s.io/v1beta1'],
    ['cluster', 'v1', 'meta.cluster.io/v1'],
  ] as const) {
    const table = toTable(noColumns, [role], { includeObject: 'Metadata', now: NOW, groupVersionSpelling: spelling, version });
    assert.equal(table.apiVersion, apiVersion);
    assert.deepEqual(table.rows?.[0].object, {
      kind: 'PartialObjectMetadata',
      apiVersion,
      metadata: { name: 'reader', namespace: 'ns', uid: 'u1', resourceVersion: '42', creationTimestamp: '2026-11-21T08:00:00Z' },
    });
  }
});

test('includeObject=Object embeds the full object; None gives null', () => {
  const full = toTable(noColumns, [role], { includeObject: 'Object', now: NOW, groupVersionSpelling: 'k8s' });
  assert.equal(full.rows?.[0].object, role);
  const none = toTable(noColumns, [role], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  assert.equal(none.rows?.[0].object, null);
  assert.ok('object' in (none.rows?.[0] ?? {}));
});

test('includeObject=Object fills a missing kind and apiVersion from the definition', () => {
  const table = toTable(definition('apps', 'v1', 'deployments'), [{ metadata: { name: 'd' } }], {
    includeObject: 'Object', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.rows?.[0].object, { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'd' } });
});

test('noHeaders leaves columnDefinitions null (watch events after the first)', () => {
  const table = toTable(noColumns, [role], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s', noHeaders: true });
  assert.equal(table.columnDefinitions, null);
  assert.equal(table.rows?.length, 1);
});

test('wide columns (priority 1) are always served, as the upstream server prints wide', () => {
  const table = toTable(definition('', 'v1', 'pods'), [], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  assert.deepEqual(table.columnDefinitions?.filter((c) => c.priority === 1).map((c) => c.name), [
    'IP', 'Node', 'Nominated Node', 'Readiness Gates',
  ]);
  assert.deepEqual(table.rows, []);
});

test('every built-in column list yields one cell per column without throwing on an empty object', () => {
  for (const [group, version, resource] of [
    ['', 'v1', 'pods'], ['', 'v1', 'services'], ['', 'v1', 'nodes'], ['', 'v1', 'events'], ['apps', 'v1', 'deployments'],
    ['batch', 'v1', 'cronjobs'], ['autoscaling', 'v2', 'horizontalpodautoscalers'], ['networking.k8s.io', 'v1', 'ingresses'],
    ['flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations'], ['resource.k8s.io', 'v1', 'resourceclaims'],
  ] as const) {
    const def = definition(group, version, resource);
    for (const object of [{}, { metadata: null, spec: 'garbage', status: [] }]) {
      const table = toTable(def, [object], { includeObject: 'Metadata', now: NOW, groupVersionSpelling: 'k8s' });
      assert.equal(table.rows?.[0].cells.length, def.tableColumns?.length, `${resource}`);
    }
  }
});

test('types without a printer guess cells from fields named like the column', () => {
  const source: TableSource = {
    group: 'example.com', version: 'v1', resource: 'things', kind: 'Thing',
    tableColumns: [
      { name: 'Name', type: 'string', format: 'name', priority: 0 },
      { name: 'Driver Name', type: 'string', format: '', priority: 0 },
      { name: 'Phase', type: 'string', format: '', priority: 0 },
      { name: 'Mystery', type: 'string', format: '', priority: 0 },
      { name: 'Age', type: 'string', format: '', priority: 0 },
    ],
  };
  const table = toTable(source, [{ metadata: { name: 't', creationTimestamp: ago(30) }, driverName: 'd', status: { phase: 'Ok' } }], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.rows?.[0].cells, ['t', 'd', 'Ok', '<none>', '30s']);
});

test('parseIncludeObject accepts the three values and defaults to Metadata', () => {
  assert.equal(parseIncludeObject(undefined), 'Metadata');
  assert.equal(parseIncludeObject(null), 'Metadata');
  assert.equal(parseIncludeObject(''), 'Metadata');
  assert.equal(parseIncludeObject('None'), 'None');
  assert.equal(parseIncludeObject('Object'), 'Object');
  assert.equal(parseIncludeObject('object'), undefined);
});
