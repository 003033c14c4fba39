/**
 * RBAC roles and bindings (rbac.authorization.k8s.io/v1), checked as upstream's validation checks
 * them. A rule names verbs, and either resources of API groups or (cluster roles only)
 * non-resource URLs, never both; an aggregation rule needs valid selectors. The role a binding
 * grants never changes (a new grant is a new binding, so audit trails stay truthful), references
 * default to the RBAC group, and kinds are checked against what each binding may reference.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, type KubeObject } from '../object.js';
import { isDns1123Subdomain } from '../../validation/dns-names.js';
import { nameIsRbacName } from '../../validation/name-validators.js';
import { validateLabelSelector } from './label-selector.js';
import { fieldInvalid, fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import { asRecord, asStringArray, defaultTo, isRecord, recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';
import type { TypeRules } from './rule-strategy.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Rules of Roles (`clusterScoped` false) and ClusterRoles (true). */
export function roleRules(clusterScoped: boolean): TypeRules {
  return {
    validate: (role) => {
      const errors: FieldError[] = [];
      recordsAt(role, 'rules').forEach((rule, i) => errors.push(...validatePolicyRule(rule, !clusterScoped, `rules[${i}]`)));
      if (clusterScoped && isRecord(role['aggregationRule'])) errors.push(...validateAggregationRule(role['aggregationRule']));
      return errors;
    },
  };
}

/** Upstream's ValidatePolicyRule. */
function validatePolicyRule(rule: JsonRecord, namespaced: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const count = (field: string) => asStringArray(rule[field]).length;
  if (count('verbs') === 0) errors.push(fieldRequired(`${path}.verbs`, 'verbs must contain at least one value'));
  if (count('nonResourceURLs') > 0) {
    const urls = asStringArray(rule['nonResourceURLs']);
    if (namespaced) errors.push(fieldInvalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (count('apiGroups') > 0 || count('resources') > 0 || count('resourceNames') > 0) {
      errors.push(fieldInvalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errors;
  }
  if (count('apiGroups') === 0) errors.push(fieldRequired(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (count('resources') === 0) errors.push(fieldRequired(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errors;
}

/** A ClusterRole's aggregationRule: at least one selector, each valid (and convertible, as upstream checks twice). */
function validateAggregationRule(aggregation: JsonRecord): FieldError[] {
  const selectors = recordsAt(aggregation, 'clusterRoleSelectors');
  if (selectors.length === 0) {
    return [fieldRequired('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil')];
  }
  return selectors.flatMap((selector, i) => {
    const path = `aggregationRule.clusterRoleSelectors[${i}]`;
    const errors = validateLabelSelector(selector, path);
    // Upstream also converts the selector, and a selector that does not convert is reported again as a whole (nil: null).
    return errors.length === 0 ? errors : [...errors, fieldInvalid(path, null, 'invalid label selector.')];
  });
}

/** Rules of RoleBindings (`clusterScoped` false) and ClusterRoleBindings (true). */
export function bindingRules(clusterScoped: boolean): TypeRules {
  const roleKinds = clusterScoped ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  return {
    defaults: (binding) => {
      defaultTo(asRecord(binding, 'roleRef'), 'apiGroup', RBAC_GROUP);
      for (const subject of recordsAt(binding, 'subjects')) defaultSubject(subject);
    },
    validate: (binding) => validateBinding(binding, roleKinds, clusterScoped),
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

function validateBinding(binding: KubeObject, roleKinds: readonly string[], clusterScoped: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const roleRef = recordAt(binding, 'roleRef') ?? {};
  if (stringAt(roleRef, 'apiGroup') !== RBAC_GROUP) errors.push(fieldNotSupported('roleRef.apiGroup', roleRef['apiGroup'] ?? '', [RBAC_GROUP]));
  const kind = stringAt(roleRef, 'kind') ?? '';
  if (!roleKinds.includes(kind)) errors.push(fieldNotSupported('roleRef.kind', kind, roleKinds));
  const name = stringAt(roleRef, 'name') ?? '';
  if (name === '') errors.push(fieldRequired('roleRef.name'));
  else for (const message of nameIsRbacName(name, false)) errors.push(fieldInvalid('roleRef.name', name, message));
  recordsAt(binding, 'subjects').forEach((subject, i) => errors.push(...validateSubject(subject, `subjects[${i}]`, clusterScoped)));
  return errors;
}

/** Upstream's ValidateRoleBindingSubject: a service account of a RoleBinding may leave its namespace to the binding's. */
function validateSubject(subject: JsonRecord, path: string, clusterScoped: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const name = stringAt(subject, 'name') ?? '';
  if (name === '') errors.push(fieldRequired(`${path}.name`));
  const kind = stringAt(subject, 'kind') ?? '';
  if (kind === 'ServiceAccount') {
    if (name !== '') for (const message of isDns1123Subdomain(name)) errors.push(fieldInvalid(`${path}.name`, name, message));
    if (stringAt(subject, 'apiGroup')) errors.push(fieldNotSupported(`${path}.apiGroup`, subject['apiGroup'], ['']));
    if (clusterScoped && !stringAt(subject, 'namespace')) errors.push(fieldRequired(`${path}.namespace`));
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
