/**
 * The pods/ephemeralcontainers subresource (what `kubectl debug` writes): the only way to change a
 * pod's spec.ephemeralContainers, and a write there changes nothing else. Ephemeral containers may
 * be added, never changed or removed, and may not carry what a pod's own services rely on (ports,
 * probes, lifecycle hooks, resources), as upstream's ValidatePodEphemeralContainersUpdate rules.
 */
import type { FieldError } from '../../api/errors.js';
import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldNotFound, fieldRequired } from '../../validation/field-errors.js';
import type { NameValidator } from '../../validation/name-validators.js';
import { jsonEqual, type KubeObject } from '../object.js';
import { isRecord, recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';
import { jsonDiff } from './json-diff.js';
import { isMirrorPod } from './mirror-pod.js';

export const EPHEMERAL_CONTAINERS = 'ephemeralcontainers';

/** Fields an ephemeral container may not set (upstream allows a list of fields; these are the rest). */
const FORBIDDEN_FIELDS = ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resizePolicy', 'restartPolicy', 'restartPolicyRules'];

/**
 * The spec an ephemeral containers write makes of stored pod `old` (upstream's
 * dropNonEphemeralContainerUpdates): the stored spec with the written ephemeral containers.
 */
export function ephemeralSpec(object: KubeObject, old: KubeObject): JsonRecord {
  const written = recordsAt(object['spec'], 'ephemeralContainers');
  const spec = structuredClone(recordAt(old, 'spec') ?? {});
  if (written.length > 0) spec['ephemeralContainers'] = written;
  else delete spec['ephemeralContainers'];
  return spec;
}

/** Field errors of an ephemeral containers write turning `old` into `object`. */
export function validateEphemeralContainersUpdate(object: KubeObject, old: KubeObject, validateLabel: NameValidator): FieldError[] {
  if (isMirrorPod(old)) {
    // Upstream names the whole pod by the root path, which it prints as "[]".
    return [fieldForbidden('[]', 'static pods do not support ephemeral containers')];
  }
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const errors = validateEphemeralContainers(spec, validateLabel);
  const path = 'spec.ephemeralContainers';
  const written = new Map(recordsAt(spec, 'ephemeralContainers').map((c) => [stringAt(c, 'name'), c]));
  for (const existing of recordsAt(old['spec'], 'ephemeralContainers')) {
    const name = stringAt(existing, 'name') ?? '';
    const now = written.get(name);
    if (now === undefined) errors.push(fieldForbidden(path, `existing ephemeral containers "${name}" may not be removed\n`));
    else if (!jsonEqual(existing, now)) {
      errors.push(fieldForbidden(path, `existing ephemeral containers "${name}" may not be changed\n${jsonDiff(existing, now, `${path}[${name}]`)}`));
    }
  }
  return errors;
}

/** Each ephemeral container: a unique DNS-label name, an image, a real target, no forbidden fields. */
function validateEphemeralContainers(spec: JsonRecord, validateLabel: NameValidator): FieldError[] {
  const errors: FieldError[] = [];
  const podContainers = new Set([...recordsAt(spec, 'initContainers'), ...recordsAt(spec, 'containers')].map((c) => stringAt(c, 'name')));
  const seen = new Set(podContainers);
  recordsAt(spec, 'ephemeralContainers').forEach((container, i) => {
    const path = `spec.ephemeralContainers[${i}]`;
    const name = stringAt(container, 'name') ?? '';
    if (name === '') errors.push(fieldRequired(`${path}.name`));
    else {
      for (const message of validateLabel(name, false)) errors.push(fieldInvalid(`${path}.name`, name, message));
      if (seen.has(name)) errors.push(fieldDuplicate(`${path}.name`, name));
      seen.add(name);
    }
    if (!stringAt(container, 'image')) errors.push(fieldRequired(`${path}.image`));
    const target = stringAt(container, 'targetContainerName');
    if (target && !podContainers.has(target)) {
      errors.push(fieldNotFound(`${path}.targetContainerName`, target));
    }
    for (const field of FORBIDDEN_FIELDS) {
      if (isSet(container[field])) errors.push(fieldForbidden(`${path}.${field}`, 'cannot be set for an Ephemeral Container'));
    }
    const resources = container['resources'];
    if (isRecord(resources) && Object.values(resources).some(notEmpty)) {
      errors.push(fieldForbidden(`${path}.resources`, 'cannot be set for an Ephemeral Container'));
    }
  });
  return errors;
}

/** Whether Go would see a non-zero field: a pointer (an object) is set even when empty; a list only when not empty. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/** Whether a map or list field holds anything. */
function notEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return value !== undefined && value !== null;
}
