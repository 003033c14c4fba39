/**
 * The checks of a pod spec that kubectl users meet most (upstream's ValidatePodSpec, in part):
 * containers present and uniquely named with DNS-1123 labels, images set, enumerations within
 * their values, container ports in range. Shared by Pods and pod templates.
 */
import type { FieldError } from '../../api/errors.js';
import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import type { NameValidator } from '../../validation/name-validators.js';
import { recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';

export interface PodSpecRules {
  /** DNS-1123 label rule for container names. */
  readonly validateLabel: NameValidator;
  /** Pods need an image in every container; templates may leave it to whatever fills it. */
  readonly requireImage: boolean;
  /** Restart policies allowed here (Jobs allow OnFailure and Never only). */
  readonly restartPolicies?: readonly string[];
  /** --allow-privileged; upstream's default is false. */
  readonly allowPrivileged?: boolean;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** Field errors of the (defaulted) pod spec at `path`. */
export function validatePodSpec(spec: JsonRecord, path: string, rules: PodSpecRules): FieldError[] {
  const errors: FieldError[] = [];
  if (recordsAt(spec, 'containers').length === 0) errors.push(fieldRequired(`${path}.containers`));
  const names = new Set<string>();
  for (const list of ['initContainers', 'containers']) {
    recordsAt(spec, list).forEach((container, i) => {
      errors.push(...validateContainer(container, `${path}.${list}[${i}]`, names, rules));
    });
  }
  errors.push(...oneOf(spec, 'restartPolicy', path, rules.restartPolicies ?? RESTART_POLICIES));
  errors.push(...oneOf(spec, 'dnsPolicy', path, DNS_POLICIES));
  return errors;
}

function validateContainer(container: JsonRecord, path: string, names: Set<string>, rules: PodSpecRules): FieldError[] {
  const errors: FieldError[] = [];
  const name = stringAt(container, 'name') ?? '';
  if (name === '') errors.push(fieldRequired(`${path}.name`));
  else {
    for (const message of rules.validateLabel(name, false)) errors.push(fieldInvalid(`${path}.name`, name, message));
    if (names.has(name)) errors.push(fieldDuplicate(`${path}.name`, name));
    names.add(name);
  }
  const image = stringAt(container, 'image') ?? '';
  if (rules.requireImage && image === '') errors.push(fieldRequired(`${path}.image`));
  errors.push(...oneOf(container, 'imagePullPolicy', path, PULL_POLICIES));
  if (recordAt(container, 'securityContext')?.['privileged'] === true && !rules.allowPrivileged) {
    errors.push(fieldForbidden(`${path}.securityContext.privileged`, 'disallowed by cluster policy'));
  }
  recordsAt(container, 'ports').forEach((port, i) => {
    const portPath = `${path}.ports[${i}]`;
    const number = port['containerPort'];
    if (typeof number !== 'number' || number < 1 || number > 65535) {
      errors.push(fieldInvalid(`${portPath}.containerPort`, number ?? 0, 'must be between 1 and 65535, inclusive'));
    }
    errors.push(...oneOf(port, 'protocol', portPath, PROTOCOLS));
  });
  return errors;
}

/** NotSupported when `record[field]` is set to a value outside `allowed`. */
function oneOf(record: JsonRecord, field: string, path: string, allowed: readonly string[]): FieldError[] {
  const value = record[field];
  if (value === undefined || value === null) return [];
  if (value === '') return [fieldRequired(`${path}.${field}`)];
  return typeof value === 'string' && allowed.includes(value) ? [] : [fieldNotSupported(`${path}.${field}`, value, allowed)];
}
