/**
 * metav1.LabelSelector as the workload strategies need it: its validation, whether it selects a
 * label set, and how upstream prints it in validation messages: as encoding/json writes the typed
 * value since 1.34 (before, Go's `%#v`: `v1.LabelSelector{MatchLabels:map[string]string{...}, ...}`).
 */
import type { FieldError } from '../../api/errors.js';
import { fieldForbidden, fieldInvalid, fieldRequired, goJsonMap } from '../../validation/field-errors.js';
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

/**
 * A selector as encoding/json writes a *metav1.LabelSelector in validation messages (1.34+):
 * `{"matchLabels":{"app":"web"}}`, empty fields left out, labels sorted; null for none.
 */
export function jsonLabelSelector(selector: unknown): Record<string, unknown> | null {
  if (!isRecord(selector)) return null;
  const labels = goJsonMap(selector['matchLabels']);
  const expressions = recordsAt(selector, 'matchExpressions').map((r) => ({
    key: String(r['key'] ?? ''),
    operator: String(r['operator'] ?? ''),
    ...(Array.isArray(r['values']) && r['values'].length > 0 ? { values: asStringArray(r['values']) } : {}),
  }));
  return {
    ...(labels !== null && Object.keys(labels).length > 0 ? { matchLabels: labels } : {}),
    ...(expressions.length > 0 ? { matchExpressions: expressions } : {}),
  };
}
