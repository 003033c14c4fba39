/**
 * The Table representation (meta.k8s.io/v1 Table) as upstream serializes it; interfaces list
 * fields in upstream's key order, which the builders keep.
 */
import type { ListMeta, PartialObjectMetadata } from '../metadata-only/partial-object-metadata.js';

/** One cell: upstream's printers produce strings, integers, booleans; custom columns may give null. */
export type Cell = string | number | boolean | null;

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** Marks a row, e.g. a pod that has completed (`Completed`); kubectl hides such rows unless asked. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: Cell[];
  conditions?: TableRowCondition[];
  /** PartialObjectMetadata, the full object, or null for includeObject=None. */
  object: PartialObjectMetadata | Readonly<Record<string, unknown>> | null;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  /** null when headers are suppressed (every watch event after the first). */
  columnDefinitions: TableColumnDefinition[] | null;
  /** null for an empty list served by the default table, as upstream's default convertor gives. */
  rows: TableRow[] | null;
}

/** The `includeObject` query parameter. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';
