/**
 * The Table conversion (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), what
 * `kubectl get` asks for. Upstream's server always prints the wide columns; clients drop the
 * columns with priority > 0 unless asked for `-o wide`.
 *
 * Worked example, a list of one config map:
 *   toTable(configmaps, [cm1], { includeObject: 'Metadata', listMeta: { resourceVersion: '214' },
 *     now, groupVersionSpelling: 'k8s' })
 *   → { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '214' },
 *       columnDefinitions: [Name, Data, Age], rows: [{ cells: ['cm1', 1, '4s'],
 *       object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: {...} } }] }
 */
import { apiVersionOf, type ResourceDefinition } from '../../registry/catalog/resource-definition.js';
import { metaApiVersion, type MetaSpelling, type MetaVersion } from '../metadata-only/meta-group-version.js';
import {
  listMetaOf,
  toPartialObjectMetadata,
  type ApiObject,
  type ListMeta,
  type ListMetaInput,
} from '../metadata-only/partial-object-metadata.js';
import { columnDefinitions, isDefaultTable, servedColumns, type ServedColumn } from './columns.js';
import { genericCell } from './generic-cells.js';
import { jsonPathCell } from './json-path-cell.js';
import { objectAt, text } from './object-fields.js';
import type { PrintContext, Printer } from './printer.js';
import { printerFor } from './printer-index.js';
import type { Cell, IncludeObject, Table, TableRow } from './table-types.js';

/**
 * The parts of a resource definition a table needs. A ResourceDefinition fits; custom resource
 * definitions may give columns with a `jsonPath` (their additionalPrinterColumns).
 */
export type TableSource = Pick<ResourceDefinition, 'group' | 'version' | 'resource' | 'kind'> & {
  readonly tableColumns?: readonly ServedColumn[];
};

export interface TableOptions {
  /** What each row's `object` holds; the `includeObject` query parameter, 'Metadata' by default. */
  readonly includeObject: IncludeObject;
  /** For lists: resourceVersion, continue, remainingItemCount of the list. */
  readonly listMeta?: ListMetaInput;
  /** The clock for ages, milliseconds since the epoch. */
  readonly now: number;
  /** The meta group spelling of the client's Accept header. */
  readonly groupVersionSpelling: MetaSpelling;
  /** meta.k8s.io/v1 (default) or v1beta1, as the client asked. */
  readonly version?: MetaVersion;
  /** Leave out columnDefinitions (null), as upstream does for every watch event after the first. */
  readonly noHeaders?: boolean;
}

/** The full object of a row, with apiVersion and kind filled in when the stored form lacks them. */
function fullObject(object: ApiObject, source: TableSource): Readonly<Record<string, unknown>> {
  if (object.apiVersion !== undefined && object.kind !== undefined) return object;
  return { kind: object.kind ?? source.kind, apiVersion: object.apiVersion ?? apiVersionOf(source), ...object };
}

function rowObject(object: ApiObject, source: TableSource, options: TableOptions): TableRow['object'] {
  switch (options.includeObject) {
    case 'None':
      return null;
    case 'Object':
      return fullObject(object, source);
    default:
      return toPartialObjectMetadata(object, options.groupVersionSpelling, options.version);
  }
}

function cellsOf(object: ApiObject, columns: readonly ServedColumn[], printer: Printer | undefined, ctx: PrintContext): Cell[] {
  const printed = printer?.cells(object, ctx) ?? {};
  return columns.map((column) => {
    if (column.jsonPath !== undefined) return jsonPathCell(object, column.jsonPath, column.type, ctx.now);
    return Object.hasOwn(printed, column.name) ? printed[column.name] : genericCell(column, object, ctx.now);
  });
}

function tableMetadata(objects: ApiObject | readonly ApiObject[], listMeta: ListMetaInput | undefined): ListMeta {
  if (Array.isArray(objects)) return listMetaOf(listMeta);
  // A single object's table carries the object's resourceVersion.
  return listMetaOf({ resourceVersion: text(objectAt((objects as ApiObject).metadata).resourceVersion) });
}

/**
 * Converts one object (GET) or a list's items (LIST) to a Table.
 * @param source the resource type; its `tableColumns` decide the columns (the default table when
 *   absent). Columns with a `jsonPath` (custom resources) are read from the object.
 * @param objects one object (a table with one row, metadata.resourceVersion from the object) or the
 *   items of a list (metadata from `options.listMeta`). Objects are not mutated or copied; rows
 *   with includeObject 'Object' share them.
 */
export function toTable(source: TableSource, objects: ApiObject | readonly ApiObject[], options: TableOptions): Table {
  const items: readonly ApiObject[] = Array.isArray(objects) ? objects : [objects as ApiObject];
  const columns = servedColumns(source.tableColumns);
  const printer = isDefaultTable(columns) ? undefined : printerFor(source.group, source.version, source.resource);
  const ctx: PrintContext = { now: options.now };
  const rows = items.map((object): TableRow => {
    const cells = cellsOf(object, columns, printer, ctx);
    const conditions = printer?.conditions?.(object);
    const row = rowObject(object, source, options);
    // Key order as upstream writes it: cells, conditions (when any), object.
    return conditions === undefined ? { cells, object: row } : { cells, conditions, object: row };
  });
  return {
    kind: 'Table',
    apiVersion: metaApiVersion(options.groupVersionSpelling, options.version),
    metadata: tableMetadata(objects, options.listMeta),
    columnDefinitions: options.noHeaders === true ? null : columnDefinitions(columns),
    // Upstream's default convertor appends to a nil slice, so an empty default table has null rows.
    rows: rows.length === 0 && isDefaultTable(columns) ? null : rows,
  };
}

/**
 * Reads the `includeObject` query parameter: undefined or "" means 'Metadata'. Returns undefined
 * for any other value; upstream answers that with 400 BadRequest ("Unable to convert to Table as
 * requested: includeObject: Unsupported value: ...").
 */
export function parseIncludeObject(value: string | null | undefined): IncludeObject | undefined {
  if (value === undefined || value === null || value === '') return 'Metadata';
  return value === 'None' || value === 'Metadata' || value === 'Object' ? value : undefined;
}
