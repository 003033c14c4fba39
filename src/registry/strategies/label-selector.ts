/**
 * metav1.LabelSelector as the workload strategies need it: its validation, whether it selects a
 * label set, and how upstream prints it (and label maps) in validation messages — Go's `%#v` of
 * the typed value, which clients and people have long matched on, e.g.
 * `v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`.
 */
import type { FieldError } from '../../api/errors.js';
import { goQuote } from '../../serialization/go-format.js';
import { fieldForbidden, fieldInvalid, fieldRequired, GoSyntax } from '../../validation/field-errors.js';
import { validateLabels } from '../../validation/labels-annotations.js';
import { isQualifiedName, isValidLabelValue } from '../../validation/qualified-names.js';
import { asStringArray, isRecord, recordsAt, type JsonRecord } from './json-access.js';

/**
 * Upstream's ValidateLabelSelector (label values in selectors checked, as for new objects): the
 * matchLabels as labels, and each requirement's operator, the values it needs or forbids, its key
 * and values. A selector with none of these errors is one upstream's LabelSelectorAsSelector takes.
 */
export function validateLabelSelector(selector: JsonRecord, path: string): FieldError[] {
  const matchLabels = isRecord(selector['matchLabels']) ? (selector['matchLabels'] as Record<string, string>) : undefined;
  const errors = validateLabels(matchLabels, `${path}.matchLabels`);
  recordsAt(selector, 'matchExpressions').forEach((requirement, i) => errors.push(...validateRequirement(requirement, `${path}.matchExpressions[${i}]`)));
  return errors;
}

function validateRequirement(requirement: JsonRecord, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const values = asStringArray(requirement['values']);
  const operator = requirement['operator'];
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) errors.push(fieldRequired(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) errors.push(fieldForbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else {
    errors.push(fieldInvalid(`${path}.operator`, String(operator ?? ''), 'not a valid selector operator'));
  }
  const key = String(requirement['key'] ?? '');
  for (const msg of isQualifiedName(key)) errors.push(fieldInvalid(`${path}.key`, key, msg));
  values.forEach((value, i) => {
    for (const msg of isValidLabelValue(value)) errors.push(fieldInvalid(`${path}.values[${i}]`, value, msg));
  });
  return errors;
}

/** Whether `selector` (matchLabels and matchExpressions) selects `labels`. An empty selector selects everything. */
export function selectorMatches(selector: JsonRecord, labels: Readonly<Record<string, string>>): boolean {
  const matchLabels = isRecord(selector['matchLabels']) ? selector['matchLabels'] : {};
  for (const [key, value] of Object.entries(matchLabels)) if (labels[key] !== value) return false;
  return recordsAt(selector, 'matchExpressions').every((requirement) => requirementMatches(requirement, labels));
}

function requirementMatches(requirement: JsonRecord, labels: Readonly<Record<string, string>>): boolean {
  const key = String(requirement['key'] ?? '');
  const values = asStringArray(requirement['values']);
  const has = Object.prototype.hasOwnProperty.call(labels, key);
  switch (requirement['operator']) {
    case 'In':
      return has && values.includes(labels[key]!);
    case 'NotIn':
      return !has || !values.includes(labels[key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

/** Whether the selector has neither matchLabels nor matchExpressions. */
export function selectorIsEmpty(selector: JsonRecord): boolean {
  const labels = isRecord(selector['matchLabels']) ? Object.keys(selector['matchLabels']).length : 0;
  return labels + recordsAt(selector, 'matchExpressions').length === 0;
}

/** Go's `%#v` of a map[string]string (keys sorted, as fmt prints maps). */
export function goStringMap(map: unknown): string {
  if (!isRecord(map)) return 'map[string]string(nil)';
  const entries = Object.keys(map).sort().map((key) => `${goQuote(key)}:${goQuote(String(map[key]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

function goStringSlice(value: unknown): string {
  if (!Array.isArray(value)) return '[]string(nil)';
  return `[]string{${asStringArray(value).map(goQuote).join(', ')}}`;
}

/** Go's `%#v` of a metav1.LabelSelector. */
export function goLabelSelector(selector: unknown): GoSyntax {
  const record = isRecord(selector) ? selector : {};
  const expressions = Array.isArray(record['matchExpressions'])
    ? `[]v1.LabelSelectorRequirement{${recordsAt(record, 'matchExpressions')
        .map((r) => `v1.LabelSelectorRequirement{Key:${goQuote(String(r['key'] ?? ''))}, Operator:${goQuote(String(r['operator'] ?? ''))}, Values:${goStringSlice(r['values'])}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoSyntax(`v1.LabelSelector{MatchLabels:${goStringMap(record['matchLabels'])}, MatchExpressions:${expressions}}`);
}
