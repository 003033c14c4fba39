import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTable } from '../../../src/endpoints/table/to-table.js';
import { goldenBody, goldenHeader } from '../metadata-only/golden-http.js';
import { definition } from './table-fixtures.js';

/** Rebuilds the config maps behind the captured table from its rows' metadata (each had one key). */
function configMaps(golden: Record<string, unknown>): Record<string, unknown>[] {
  const rows = golden.rows as { object: { metadata: unknown } }[];
  return rows.map((row) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: row.object.metadata, data: { only: 'one' } }));
}

/** Upstream's column descriptions are its own prose; ours differ on purpose. */
function withoutDescriptions(table: unknown): unknown {
  const copy = structuredClone(table) as { columnDefinitions: { description: string }[] };
  for (const column of copy.columnDefinitions) column.description = '';
  return copy;
}

test('Table of a config map list reproduces the captured upstream table', () => {
  const golden = goldenBody('table-list.txt');
  // The capture's Date header is the server's clock when it computed the ages.
  const now = Date.parse(goldenHeader('table-list.txt', 'date') ?? '');
  const table = toTable(definition('', 'v1', 'configmaps'), configMaps(golden), {
    includeObject: 'Metadata',
    listMeta: { resourceVersion: '214', continue: '' },
    now,
    groupVersionSpelling: 'k8s',
  });
  assert.equal(JSON.stringify(withoutDescriptions(table), null, 2), JSON.stringify(withoutDescriptions(golden), null, 2));
});

test('column definitions carry descriptions of our own, never empty for Name and Age', () => {
  const table = toTable(definition('', 'v1', 'configmaps'), [], { includeObject: 'None', now: 0, groupVersionSpelling: 'k8s' });
  const byName = Object.fromEntries((table.columnDefinitions ?? []).map((c) => [c.name, c.description]));
  assert.equal(byName.Name, 'Name of the object.');
  assert.equal(byName.Age, 'Time since the object was created.');
  assert.deepEqual(table.rows, []);
});
