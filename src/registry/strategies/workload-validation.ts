/**
 * The rules controllers of pods share (upstream's ValidateDeploymentSpec, ValidateReplicaSetSpec,
 * ... in part): a valid, non-empty selector that selects the template's labels, a valid template,
 * and a non-negative replica count.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual } from '../object.js';
import { fieldImmutable, fieldInvalid, fieldRequired, goJsonMap } from '../../validation/field-errors.js';
import type { NameValidator } from '../../validation/name-validators.js';
import { isRecord, recordAt, type JsonRecord } from './json-access.js';
import { jsonLabelSelector, selectorIsEmpty, selectorMatches, validateLabelSelector } from './label-selector.js';
import { validatePodSpec } from './pod-spec-validation.js';

export interface TemplateRules {
  /** The kind's word in "empty selector is invalid for <kind>". */
  readonly kindWord: string;
  readonly validateLabel: NameValidator;
  /** Restart policies the controller supports. */
  readonly restartPolicies: readonly string[];
  /**
   * A selector upstream cannot convert is reported once more as "invalid label selector", and the
   * template is then not checked at all (Deployment, ReplicaSet). Otherwise only the check that the
   * selector selects the template's labels is left out.
   */
  readonly invalidSelectorSkipsTemplate?: boolean;
  /** --allow-privileged. */
  readonly allowPrivileged: boolean;
}

/** Field errors of `spec.selector`, `spec.template` and `spec.replicas`. */
export function validateSelectedTemplate(spec: JsonRecord, rules: TemplateRules): FieldError[] {
  const errors: FieldError[] = [];
  const selector = recordAt(spec, 'selector');
  if (!selector) errors.push(fieldRequired('spec.selector'));
  const selectorErrors = selector ? validateLabelSelector(selector, 'spec.selector') : [];
  errors.push(...selectorErrors);
  if (selector && selectorIsEmpty(selector)) errors.push(fieldInvalid('spec.selector', jsonLabelSelector(selector), `empty selector is invalid for ${rules.kindWord}`));
  const valid = selectorErrors.length === 0;
  if (!valid && rules.invalidSelectorSkipsTemplate) errors.push(fieldInvalid('spec.selector', jsonLabelSelector(selector), 'invalid label selector'));
  else errors.push(...validateTemplate(recordAt(spec, 'template'), valid ? selector : undefined, 'spec.template', rules));
  errors.push(...nonNegative(spec, 'replicas', 'spec.replicas'));
  return errors;
}

/** Field errors of a pod template that `selector` must select. */
export function validateTemplate(template: JsonRecord | undefined, selector: JsonRecord | undefined, path: string, rules: TemplateRules): FieldError[] {
  if (!template) return [fieldRequired(path)];
  const errors: FieldError[] = [];
  const labels = recordAt(template, 'metadata')?.['labels'];
  const labelSet = isRecord(labels) ? (labels as Record<string, string>) : {};
  if (selector && !selectorIsEmpty(selector) && !selectorMatches(selector, labelSet)) {
    errors.push(fieldInvalid(`${path}.metadata.labels`, goJsonMap(labels), '`selector` does not match template `labels`'));
  }
  const podSpec = recordAt(template, 'spec') ?? {};
  errors.push(...validatePodSpec(podSpec, `${path}.spec`, { validateLabel: rules.validateLabel, requireImage: false, restartPolicies: rules.restartPolicies, allowPrivileged: rules.allowPrivileged }));
  return errors;
}

/** Upstream's ValidateNonnegativeField. */
export function nonNegative(record: JsonRecord, field: string, path: string): FieldError[] {
  const value = record[field];
  return typeof value === 'number' && value < 0 ? [fieldInvalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** `spec.selector: Invalid value: v1.LabelSelector{...}: field is immutable` when the selector changed. */
export function selectorImmutable(spec: JsonRecord, oldSpec: JsonRecord): FieldError[] {
  if (jsonEqual(spec['selector'], oldSpec['selector'])) return [];
  return [fieldImmutable('spec.selector', jsonLabelSelector(spec['selector']))];
}
