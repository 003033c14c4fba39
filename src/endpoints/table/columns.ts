/**
 * Column definitions of a served table. Built-in types take theirs from the catalog (upstream's
 * column list per resource); a type without one gets the default table, Name and Created At.
 * Custom resources may add columns with a JSONPath (CRD additionalPrinterColumns); those carry
 * `jsonPath` and optionally their own description.
 *
 * Descriptions are short texts of our own: clients show them only in API explorers.
 */
import type { TableColumn } from '../../registry/catalog/resource-definition.js';
import type { TableColumnDefinition } from './table-types.js';

/** A column as a resource definition may carry it: a catalog column, or a CRD printer column. */
export interface ServedColumn extends TableColumn {
  /** JSONPath of the value for custom resource columns (`.spec.replicas`). */
  readonly jsonPath?: string;
  readonly description?: string;
}

/** The default table's columns, for types without columns of their own. */
const DEFAULT_COLUMNS: readonly ServedColumn[] = Object.freeze([
  { name: 'Name', type: 'string', format: 'name', priority: 0 },
  { name: 'Created At', type: 'date', format: '', priority: 0 },
]);

const OWN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Name: 'Name of the object.',
  Age: 'Time since the object was created.',
  'Created At': 'Creation time of the object.',
};

/** Whether the columns are exactly the default table's. */
export function isDefaultTable(columns: readonly ServedColumn[]): boolean {
  return columns.length === DEFAULT_COLUMNS.length &&
    columns.every((c, i) => c.name === DEFAULT_COLUMNS[i].name && c.type === DEFAULT_COLUMNS[i].type && c.jsonPath === undefined);
}

/**
 * The columns to serve. Custom resource tables always start with the object's name, before the
 * JSONPath columns: a list that starts with a JSONPath column (a CRD's additionalPrinterColumns
 * as written) gets the Name column first.
 */
export function servedColumns(tableColumns: readonly ServedColumn[] | undefined): readonly ServedColumn[] {
  if (tableColumns === undefined || tableColumns.length === 0) return DEFAULT_COLUMNS;
  if (tableColumns[0].jsonPath !== undefined) return [DEFAULT_COLUMNS[0], ...tableColumns];
  return tableColumns;
}

function describe(column: ServedColumn): string {
  if (column.description !== undefined) return column.description;
  if (column.jsonPath !== undefined) return `Value at ${column.jsonPath}`;
  return OWN_DESCRIPTIONS[column.name] ?? '';
}

/** The wire form of the columns, in upstream's key order. */
export function columnDefinitions(columns: readonly ServedColumn[]): TableColumnDefinition[] {
  return columns.map((c) => ({ name: c.name, type: c.type, format: c.format, description: describe(c), priority: c.priority }));
}
