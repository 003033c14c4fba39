import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadBuiltinCatalog } from '../../../src/registry/catalog/builtin-catalog.js';
import { isDefaultTable, servedColumns } from '../../../src/endpoints/table/columns.js';
import { printerFor } from '../../../src/endpoints/table/printer-index.js';

const SHARED_COLUMNS = new Set(['Name', 'Age', 'Created At']);

test('every column of every built-in table is filled by a printer or is a shared column', () => {
  const catalog = loadBuiltinCatalog(() => true);
  for (const def of catalog.all()) {
    const columns = servedColumns(def.tableColumns);
    if (isDefaultTable(columns)) continue;
    const printed = Object.keys(printerFor(def.group, def.version, def.resource)?.cells({}, { now: 0 }) ?? {});
    const id = `${def.group}/${def.version}/${def.resource}`;
    for (const column of columns) {
      assert.ok(printed.includes(column.name) || SHARED_COLUMNS.has(column.name), `${id}: no cell for column ${column.name}`);
    }
    for (const name of printed) assert.ok(columns.some((c) => c.name === name), `${id}: printer fills unknown column ${name}`);
  }
});
