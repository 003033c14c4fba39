/**
 * Text forms shared by several printers, matching what upstream's printers show for labels,
 * label selectors, container lists, booleans and truncated lists.
 */
import { objectAt, objects, optionalObject, strings, text, type JsonObject } from './object-fields.js';
import { canonicalQuantity } from './quantity-text.js';

/** Go's map iteration order is random, so upstream sorts; so do we, by UTF-16 code units like Go's byte order for ASCII. */
function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A label map as `k1=v1,k2=v2` sorted by key, or "<none>" when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(objectAt(labels)).sort(([a], [b]) => byKey(a, b));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${text(v)}`).join(',');
}

/** One requirement of a label selector as upstream prints it, or undefined when invalid. */
function requirementText(expression: JsonObject): string | undefined {
  const key = text(expression.key);
  const values = [...strings(expression.values)].sort(byKey);
  switch (text(expression.operator)) {
    case 'In':
      return values.length === 0 ? undefined : `${key} in (${values.join(',')})`;
    case 'NotIn':
      return values.length === 0 ? undefined : `${key} notin (${values.join(',')})`;
    case 'Exists':
      return values.length === 0 ? key : undefined;
    case 'DoesNotExist':
      return values.length === 0 ? `!${key}` : undefined;
    default:
      return undefined;
  }
}

/**
 * A LabelSelector (`matchLabels`, `matchExpressions`) in selector syntax, requirements sorted by
 * key: `app=web,tier in (a,b)`. "" for a nil or empty selector; undefined when it is invalid.
 */
export function labelSelectorText(selector: unknown): string | undefined {
  const value = optionalObject(selector);
  if (value === undefined) return '';
  const requirements: { key: string; text: string }[] = [];
  for (const [key, v] of Object.entries(objectAt(value.matchLabels))) requirements.push({ key, text: `${key}=${text(v)}` });
  for (const expression of objects(value.matchExpressions)) {
    const rendered = requirementText(expression);
    if (rendered === undefined) return undefined;
    requirements.push({ key: text(expression.key), text: rendered });
  }
  // A stable sort by key only, as upstream's selector keeps requirements ordered by key.
  return requirements.sort((a, b) => byKey(a.key, b.key)).map((r) => r.text).join(',');
}

/** A LabelSelector as most printers show it: "<none>" when empty, "<error>" when invalid. */
export function formatLabelSelector(selector: unknown): string {
  const rendered = labelSelectorText(selector);
  if (rendered === undefined) return '<error>';
  return rendered === '' ? '<none>' : rendered;
}

/** Container names and images of a pod spec, each joined with ",". */
export function containerCells(podSpec: unknown): { containers: string; images: string } {
  const containers = objects(objectAt(podSpec).containers);
  return {
    containers: containers.map((c) => text(c.name)).join(','),
    images: containers.map((c) => text(c.image)).join(','),
  };
}

/** Go's printBool: "True" / "False". */
function boolText(value: boolean): string {
  return value ? 'True' : 'False';
}

/** Go's printBoolPtr: "True" / "False", or "<unset>" for a nil pointer. */
export function optionalBoolText(value: unknown): string {
  return typeof value === 'boolean' ? boolText(value) : '<unset>';
}

/**
 * The first `max` entries joined with ",", and " + N more..." when there were more;
 * `empty` when there were none.
 */
export function listWithMore(entries: readonly string[], max: number, empty: string): string {
  if (entries.length === 0) return empty;
  const shown = entries.slice(0, max).join(',');
  return entries.length > max ? `${shown} + ${entries.length - max} more...` : shown;
}

/**
 * A resource quantity in upstream's canonical form ("1.5Gi" prints as "1536Mi"). Stored quantities
 * are strings, or plain numbers from lenient clients; a missing one is Go's zero Quantity, "0".
 * Text that is not a quantity is shown as it is.
 */
export function quantityText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return canonicalQuantity(String(value)) ?? String(value);
  if (typeof value !== 'string' || value === '') return '0';
  return canonicalQuantity(value) ?? value;
}

/** An IntOrString as Go's String() prints it. */
export function intOrStringText(value: unknown): string {
  return typeof value === 'number' ? String(value) : text(value);
}
