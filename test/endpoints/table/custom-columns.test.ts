import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTable, type TableSource } from '../../../src/endpoints/table/to-table.js';
import type { ServedColumn } from '../../../src/endpoints/table/columns.js';
import { NOW, ago } from './table-fixtures.js';

const columns: ServedColumn[] = [
  { name: 'Replicas', type: 'integer', format: '', priority: 0, jsonPath: '.spec.replicas' },
  { name: 'Phase', type: 'string', format: '', priority: 0, jsonPath: '.status.phase', description: 'Where it is at' },
  { name: 'Ready', type: 'boolean', format: '', priority: 1, jsonPath: '.status.ready' },
  { name: 'First', type: 'string', format: '', priority: 0, jsonPath: ".status.conditions[0].type" },
  { name: 'App', type: 'string', format: '', priority: 0, jsonPath: ".metadata.labels['app.kubernetes.io/name']" },
  { name: 'Spec', type: 'string', format: '', priority: 1, jsonPath: '.spec.nested' },
  { name: 'Ratio', type: 'number', format: '', priority: 0, jsonPath: '.spec.ratio' },
  { name: 'Age', type: 'date', format: '', priority: 0, jsonPath: '.metadata.creationTimestamp' },
];

const widgets: TableSource = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', tableColumns: columns };

const widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', creationTimestamp: ago(7200), labels: { 'app.kubernetes.io/name': 'shop' } },
  spec: { replicas: 3.7, nested: { b: 1, a: [true] }, ratio: 0.5 },
  status: { phase: 'Running', ready: true, conditions: [{ type: 'Synced' }] },
};

test('custom resource columns: Name first, then JSONPath values typed by column', () => {
  const table = toTable(widgets, [widget], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  assert.deepEqual(table.columnDefinitions?.map((c) => c.name), ['Name', ...columns.map((c) => c.name)]);
  assert.equal(table.columnDefinitions?.[2].description, 'Where it is at');
  assert.deepEqual(table.rows?.[0].cells, ['w1', 3, 'Running', true, 'Synced', 'shop', '{"a":[true],"b":1}', 0.5, '120m']);
});

test('custom resource columns: missing or mistyped values are null', () => {
  const table = toTable(widgets, [{ metadata: { name: 'w2' }, spec: { replicas: 'three' } }], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.rows?.[0].cells, ['w2', null, null, null, null, null, null, null, null]);
});

test('custom resource columns: unsupported JSONPath yields null, bad dates <invalid>', () => {
  const source: TableSource = {
    ...widgets,
    tableColumns: [
      { name: 'Filter', type: 'string', format: '', priority: 0, jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'When', type: 'date', format: '', priority: 0, jsonPath: '.status.when' },
    ],
  };
  const table = toTable(source, [{ metadata: { name: 'w3' }, status: { conditions: [], when: 'yesterday' } }], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.rows?.[0].cells, ['w3', null, '<invalid>']);
});

test('custom resource columns: Name is prepended once, even before a JSONPath column of format name', () => {
  const owner: ServedColumn = { name: 'Owner', type: 'string', format: 'name', priority: 0, jsonPath: '.spec.owner' };
  const prepended = toTable({ ...widgets, tableColumns: [owner] }, [{ metadata: { name: 'w' }, spec: { owner: 'o' } }], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(prepended.columnDefinitions?.map((c) => c.name), ['Name', 'Owner']);
  assert.deepEqual(prepended.rows?.[0].cells, ['w', 'o']);
  const name: ServedColumn = { name: 'Name', type: 'string', format: 'name', priority: 0 };
  const given = toTable({ ...widgets, tableColumns: [name, owner] }, [], { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  assert.deepEqual(given.columnDefinitions?.map((c) => c.name), ['Name', 'Owner']);
  assert.deepEqual(given.rows, []);
});
