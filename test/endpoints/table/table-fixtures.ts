/** Shared inputs of the table tests: the built-in catalog and a fixed clock. */
import { loadBuiltinCatalog } from '../../../src/registry/catalog/builtin-catalog.js';
import type { ResourceDefinition } from '../../../src/registry/catalog/resource-definition.js';
import { toTable } from '../../../src/endpoints/table/to-table.js';
import type { Cell } from '../../../src/endpoints/table/table-types.js';

const catalog = loadBuiltinCatalog();

/** "Now" of every table test: 2026-11-21T10:00:00Z. */
export const NOW = Date.parse('2026-11-21T10:00:00Z');

/** A timestamp `seconds` before NOW. */
export function ago(seconds: number): string {
  return new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** The served definition of a built-in resource, failing the test when it is not served. */
export function definition(group: string, version: string, resource: string): ResourceDefinition {
  const found = catalog.resource(group, version, resource);
  if (found === undefined) throw new Error(`${group}/${version}/${resource} is not in the catalog`);
  return found;
}

/** Cells of a one-object table keyed by column name, for readable assertions. */
export function cellsByColumn(group: string, version: string, resource: string, object: Record<string, unknown>): Record<string, Cell> {
  const table = toTable(definition(group, version, resource), object, { includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s' });
  const names = (table.columnDefinitions ?? []).map((c) => c.name);
  const cells = table.rows?.[0]?.cells ?? [];
  return Object.fromEntries(names.map((name, i) => [name, cells[i]]));
}
