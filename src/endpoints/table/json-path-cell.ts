/**
 * Cells of custom resource columns: a simple JSONPath (`.spec.replicas`, `.status.conditions[0].type`,
 * `.metadata.labels['app.kubernetes.io/name']`) evaluated on the object, then typed by the column:
 * integers and numbers stay numbers, dates become ages, strings are printed as kubectl's JSONPath
 * printer does (objects and arrays as compact JSON). A missing value is null, as upstream gives.
 * Filters, wildcards and ranges are not supported and yield null.
 */
import { since } from './human-duration.js';
import type { Cell } from './table-types.js';
import { sortedJson } from '../../serialization/sorted-json.js';

type Step = string | number;

/** Parses `.a.b[0]['c.d']`; undefined for syntax this evaluator does not support. */
function parseSimpleJsonPath(expression: string): Step[] | undefined {
  let rest = expression.trim();
  if (rest.startsWith('{') && rest.endsWith('}')) rest = rest.slice(1, -1).trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: Step[] = [];
  const token = /^(?:\.([A-Za-z0-9_-]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]|\.)/;
  while (rest !== '') {
    const match = token.exec(rest);
    if (match === null) return undefined;
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else if (match[3] !== undefined) steps.push(match[3]);
    else if (match[4] !== undefined) steps.push(match[4]);
    else if (rest.length > 1 && rest[1] !== '[') return undefined;
    rest = rest.slice(match[0].length);
  }
  return steps;
}

function evaluate(value: unknown, steps: readonly Step[]): unknown {
  let current = value;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}

function stringCell(value: unknown): Cell {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return sortedJson(value);
}

function dateCell(value: unknown, now: number): Cell {
  if (typeof value !== 'string') return null;
  if (value === '' || value === 'null') return '<unknown>';
  return Number.isNaN(Date.parse(value)) ? '<invalid>' : since(value, now);
}

/** The cell of one custom column for one object. */
export function jsonPathCell(object: unknown, jsonPath: string, type: string, now: number): Cell {
  const steps = parseSimpleJsonPath(jsonPath);
  if (steps === undefined) return null;
  const value = evaluate(object, steps);
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return stringCell(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return dateCell(value, now);
    default:
      return null;
  }
}
