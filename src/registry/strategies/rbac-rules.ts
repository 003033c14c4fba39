/**
 * RBAC bindings (rbac.authorization.k8s.io/v1): the role a binding grants never changes (a new
 * grant is a new binding, so audit trails stay truthful), references default to the RBAC group,
 * and kinds are checked against what each binding may reference.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, type KubeObject } from '../object.js';
import { fieldInvalid, fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import { asRecord, defaultTo, recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';
import type { TypeRules } from './rule-strategy.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Rules of RoleBindings (`clusterScoped` false) and ClusterRoleBindings (true). */
export function bindingRules(clusterScoped: boolean): TypeRules {
  const roleKinds = clusterScoped ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  return {
    defaults: (binding) => {
      defaultTo(asRecord(binding, 'roleRef'), 'apiGroup', RBAC_GROUP);
      for (const subject of recordsAt(binding, 'subjects')) defaultSubject(subject);
    },
    validate: (binding) => validateBinding(binding, roleKinds),
    validateUpdate: (binding, old) =>
      jsonEqual(binding['roleRef'], old['roleRef']) ? [] : [fieldInvalid('roleRef', jsonRoleRef(recordAt(binding, 'roleRef')), 'cannot change roleRef')],
  };
}

/** Users and groups are RBAC names; service accounts belong to the core group. */
function defaultSubject(subject: JsonRecord): void {
  const kind = stringAt(subject, 'kind');
  if (kind === 'User' || kind === 'Group') defaultTo(subject, 'apiGroup', RBAC_GROUP);
  else if (kind === 'ServiceAccount') defaultTo(subject, 'apiGroup', '');
}

function validateBinding(binding: KubeObject, roleKinds: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const roleRef = recordAt(binding, 'roleRef') ?? {};
  if (stringAt(roleRef, 'apiGroup') !== RBAC_GROUP) errors.push(fieldNotSupported('roleRef.apiGroup', roleRef['apiGroup'] ?? '', [RBAC_GROUP]));
  const kind = stringAt(roleRef, 'kind') ?? '';
  if (!roleKinds.includes(kind)) errors.push(fieldNotSupported('roleRef.kind', kind, roleKinds));
  if (!stringAt(roleRef, 'name')) errors.push(fieldRequired('roleRef.name'));
  recordsAt(binding, 'subjects').forEach((subject, i) => errors.push(...validateSubject(subject, `subjects[${i}]`)));
  return errors;
}

function validateSubject(subject: JsonRecord, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!stringAt(subject, 'name')) errors.push(fieldRequired(`${path}.name`));
  const kind = stringAt(subject, 'kind') ?? '';
  if (kind === 'ServiceAccount') {
    if (stringAt(subject, 'apiGroup')) errors.push(fieldNotSupported(`${path}.apiGroup`, subject['apiGroup'], ['']));
    if (!stringAt(subject, 'namespace')) errors.push(fieldRequired(`${path}.namespace`));
  } else if (kind === 'User' || kind === 'Group') {
    if (stringAt(subject, 'apiGroup') !== RBAC_GROUP) errors.push(fieldNotSupported(`${path}.apiGroup`, subject['apiGroup'] ?? '', [RBAC_GROUP]));
  } else {
    errors.push(fieldNotSupported(`${path}.kind`, kind, ['ServiceAccount', 'User', 'Group']));
  }
  return errors;
}

/** Upstream's internal rbac.RoleRef as encoding/json writes it (the internal type has no JSON tags). */
function jsonRoleRef(roleRef: JsonRecord | undefined): Record<string, string> {
  const field = (name: string) => stringAt(roleRef, name) ?? '';
  return { APIGroup: field('apiGroup'), Kind: field('kind'), Name: field('name') };
}
