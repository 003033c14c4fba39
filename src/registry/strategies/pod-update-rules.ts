/**
 * What an update may change in a pod's spec (upstream's ValidatePodUpdate): container images, a
 * shorter activeDeadlineSeconds, added tolerations (or new tolerationSeconds), removed scheduling
 * gates, and terminationGracePeriodSeconds from a negative value to 1. Everything else is fixed
 * once the pod exists, because the kubelet acts on the spec it first saw.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual } from '../object.js';
import { fieldForbidden, fieldInvalid, fieldRequired } from '../../validation/field-errors.js';
import { isRecord, recordsAt, type JsonRecord } from './json-access.js';
import { jsonDiff } from './json-diff.js';

const UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];
const MAX_INT32 = 2147483647;

/** Field errors of changing pod spec `old` into `spec`. */
export function validatePodSpecUpdate(spec: JsonRecord, old: JsonRecord): FieldError[] {
  const errors: FieldError[] = [];
  for (const list of ['containers', 'initContainers']) {
    const [listErrors, stop] = validateContainerUpdates(recordsAt(spec, list), recordsAt(old, list), `spec.${list}`);
    errors.push(...listErrors);
    if (stop) return errors;
  }
  const deadline = validateDeadline(spec['activeDeadlineSeconds'], old['activeDeadlineSeconds']);
  if (deadline) {
    errors.push(deadline.error);
    if (deadline.stop) return errors;
  }
  errors.push(...validateOnlyAddedTolerations(recordsAt(spec, 'tolerations'), recordsAt(old, 'tolerations')));
  errors.push(...validateOnlyDeletedGates(recordsAt(spec, 'schedulingGates'), recordsAt(old, 'schedulingGates')));
  if (jsonEqual(spec, old)) return errors;
  const munged = mungeUpdatable(spec, old);
  if (!jsonEqual(munged, old)) {
    const diff = jsonDiff(old, munged, 'spec');
    errors.push(fieldForbidden('spec', `pod updates may not change fields other than ${UPDATABLE_FIELDS.join(',')}\n${diff}`));
  }
  return errors;
}

function validateContainerUpdates(next: JsonRecord[], old: JsonRecord[], path: string): [FieldError[], boolean] {
  if (next.length !== old.length) return [[fieldForbidden(path, 'pod updates may not add or remove containers')], true];
  const errors: FieldError[] = [];
  next.forEach((container, i) => {
    const image = typeof container['image'] === 'string' ? container['image'] : '';
    if (image === '') errors.push(fieldRequired(`${path}[${i}].image`));
    if (image.trim() !== image) errors.push(fieldInvalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return [errors, false];
}

/**
 * Only from unset to a value, or to a smaller value; never back to unset. `stop` ends the
 * validation there, as upstream does for a bad new value.
 */
function validateDeadline(next: unknown, old: unknown): { error: FieldError; stop: boolean } | undefined {
  const path = 'spec.activeDeadlineSeconds';
  if (typeof next === 'number') {
    if (next < 0 || next > MAX_INT32) return { error: fieldInvalid(path, next, `must be between 0 and ${MAX_INT32}, inclusive`), stop: true };
    if (typeof old === 'number' && old < next) return { error: fieldInvalid(path, next, 'must be less than or equal to previous value'), stop: true };
    return undefined;
  }
  if (typeof old === 'number') return { error: fieldInvalid(path, null, 'must not update from a positive integer to nil value'), stop: false };
  return undefined;
}

/** Scheduling gates may only be removed. */
function validateOnlyDeletedGates(next: JsonRecord[], old: JsonRecord[]): FieldError[] {
  const oldNames = new Set(old.map((g) => g['name']));
  const added = next.find((g) => !oldNames.has(g['name']));
  if (added === undefined) return [];
  return [fieldForbidden('spec.schedulingGates', `only deletion is allowed, but found new scheduling gate '${String(added['name'])}'`)];
}

function validateOnlyAddedTolerations(next: JsonRecord[], old: JsonRecord[]): FieldError[] {
  for (const existing of old) {
    const kept = next.some((t) => jsonEqual({ ...existing, tolerationSeconds: t['tolerationSeconds'] }, t));
    if (!kept) return [fieldForbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

/** `spec` with every field an update may change set back to its old value. */
function mungeUpdatable(spec: JsonRecord, old: JsonRecord): JsonRecord {
  const munged = structuredClone(spec);
  for (const list of ['containers', 'initContainers']) {
    const oldList = recordsAt(old, list);
    recordsAt(munged, list).forEach((container, i) => {
      if (oldList[i]?.['image'] === undefined) delete container['image'];
      else container['image'] = oldList[i]!['image'];
    });
  }
  for (const field of ['activeDeadlineSeconds', 'tolerations', 'schedulingGates']) {
    if (old[field] === undefined) delete munged[field];
    else munged[field] = structuredClone(old[field]);
  }
  const oldGrace = old['terminationGracePeriodSeconds'];
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged['terminationGracePeriodSeconds'] === 1) {
    munged['terminationGracePeriodSeconds'] = oldGrace;
  }
  return isRecord(munged) ? munged : {};
}
