/**
 * Cells no printer supplied: the columns every table shares (Name, Age, Created At) and, for
 * types without a printer, a best guess from a field named like the column ("DriverName" →
 * `driverName`, `spec.driverName` or `status.driverName`). Anything else is "<none>".
 */
import { since, parseTimestamp } from './human-duration.js';
import { objectAt, path, text, type JsonObject } from './object-fields.js';
import type { ServedColumn } from './columns.js';
import type { Cell } from './table-types.js';

/** Go's zero time in RFC 3339, what upstream prints for a missing creationTimestamp. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** A timestamp in RFC 3339 UTC with whole seconds, as Go's time.RFC3339 layout prints it. */
function rfc3339(timestamp: unknown): string {
  const ms = parseTimestamp(timestamp);
  if (ms === undefined) return ZERO_TIME;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** "Container-Runtime" → "containerRuntime", "Pod Labels" → "podLabels". */
function fieldNameFor(column: string): string {
  const words = column.split(/[\s_-]+/).filter((w) => w !== '');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

function scalar(value: unknown): Cell | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

/** The cell of a column that no printer filled. */
export function genericCell(column: ServedColumn, object: JsonObject, now: number): Cell {
  const metadata = objectAt(object.metadata);
  if (column.format === 'name') return text(metadata.name);
  if (column.name === 'Age') return since(metadata.creationTimestamp, now);
  if (column.name === 'Created At') return rfc3339(metadata.creationTimestamp);
  const field = fieldNameFor(column.name);
  const guess = scalar(object[field]) ?? scalar(path(object, 'spec', field)) ?? scalar(path(object, 'status', field));
  return guess ?? '<none>';
}
