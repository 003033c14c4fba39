/**
 * Cluster-wide configuration types with upstream defaults and fields fixed after create:
 * PriorityClasses (scheduling.k8s.io/v1) and StorageClasses (storage.k8s.io/v1).
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, metaOf, type KubeObject } from '../object.js';
import { fieldForbidden, fieldImmutable, fieldInvalid } from '../../validation/field-errors.js';
import { defaultTo } from './json-access.js';
import type { TypeRules } from './rule-strategy.js';

/** Names upstream keeps for its own classes (system-node-critical, system-cluster-critical). */
const RESERVED_PRIORITY_PREFIX = 'system-';
const SYSTEM_PRIORITY_CLASSES = new Set(['system-node-critical', 'system-cluster-critical']);

export const PRIORITY_CLASS_RULES: TypeRules = {
  defaults: (pc) => defaultTo(pc, 'preemptionPolicy', 'PreemptLowerPriority'),
  validate: (pc) => {
    const name = metaOf(pc).name ?? '';
    if (name.startsWith(RESERVED_PRIORITY_PREFIX) && !SYSTEM_PRIORITY_CLASSES.has(name)) {
      return [fieldInvalid('metadata.name', name, "priority class names with 'system-' prefix are reserved")];
    }
    return [];
  },
  validateUpdate: (pc, old) => [
    ...unchanged(pc, old, ['value'], () => 'may not be changed in an update.'),
    ...immutable(pc, old, 'preemptionPolicy'),
  ],
};

export const STORAGE_CLASS_RULES: TypeRules = {
  defaults: (sc) => {
    defaultTo(sc, 'reclaimPolicy', 'Delete');
    defaultTo(sc, 'volumeBindingMode', 'Immediate');
  },
  validateUpdate: (sc, old) => [
    ...unchanged(sc, old, ['parameters', 'provisioner', 'reclaimPolicy'], (field) => `updates to ${field} are forbidden.`),
    ...immutable(sc, old, 'volumeBindingMode'),
  ],
};

function immutable(object: KubeObject, old: KubeObject, field: string): FieldError[] {
  return jsonEqual(object[field], old[field]) ? [] : [fieldImmutable(field, object[field] ?? null)];
}

/** Forbidden errors for each top-level field in `fields` that differs from the stored object. */
function unchanged(object: KubeObject, old: KubeObject, fields: readonly string[], message: (field: string) => string): FieldError[] {
  return fields.filter((field) => !jsonEqual(object[field], old[field])).map((field) => fieldForbidden(field, message(field)));
}
