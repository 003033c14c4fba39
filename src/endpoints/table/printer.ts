/**
 * What a per-type printer supplies. A printer returns cells keyed by column name rather than in
 * column order: the served columns come from the catalog (upstream's column list for this
 * version), and keying by name keeps a printer correct when a version adds or drops a column.
 * Columns a printer leaves out are filled generically (Name, Age, Created At) or shown as "<none>".
 */
import type { JsonObject } from './object-fields.js';
import type { Cell, TableRowCondition } from './table-types.js';

/** Inputs besides the object: the clock, read once per request so every row agrees. */
export interface PrintContext {
  /** Milliseconds since the epoch. */
  readonly now: number;
}

/** Cells of one row by column name. */
export type PrintedCells = Readonly<Record<string, Cell>>;

export interface Printer {
  cells(object: JsonObject, ctx: PrintContext): PrintedCells;
  /** Row conditions (only pods have them upstream: completed pods are marked). */
  conditions?(object: JsonObject): TableRowCondition[] | undefined;
}

/** Printers of one API family keyed by "group/resource" ("" group for core: "/pods"). */
export type PrinterTable = Readonly<Record<string, Printer>>;

/** Builds a printer from a cells function. */
export function cellsPrinter(cells: (object: JsonObject, ctx: PrintContext) => PrintedCells): Printer {
  return { cells };
}
