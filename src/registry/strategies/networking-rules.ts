/**
 * Ingresses and NetworkPolicies (networking.k8s.io/v1): upstream's defaults and the path checks
 * users meet when writing ingress rules.
 */
import type { FieldError } from '../../api/errors.js';
import type { KubeObject } from '../object.js';
import { fieldInvalid, fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import { asRecord, defaultTo, recordAt, recordsAt, stringAt } from './json-access.js';
import type { TypeRules } from './rule-strategy.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

export const INGRESS_RULES: TypeRules = {
  initialStatus: () => ({ loadBalancer: {} }),
  validate: validateIngress,
};

function validateIngress(ingress: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  recordsAt(recordAt(ingress, 'spec'), 'rules').forEach((rule, i) => {
    recordsAt(recordAt(rule, 'http'), 'paths').forEach((path, j) => {
      const at = `spec.rules[${i}].http.paths[${j}]`;
      const pathType = stringAt(path, 'pathType');
      if (pathType === undefined || pathType === '') errors.push(fieldRequired(`${at}.pathType`, 'pathType must be specified'));
      else if (!PATH_TYPES.includes(pathType)) errors.push(fieldNotSupported(`${at}.pathType`, pathType, PATH_TYPES));
      const value = stringAt(path, 'path') ?? '';
      if ((pathType === 'Exact' || pathType === 'Prefix') && !value.startsWith('/')) errors.push(fieldInvalid(`${at}.path`, value, 'must be an absolute path'));
    });
  });
  return errors;
}

/**
 * Ports default to TCP, and a policy without policyTypes governs ingress, plus egress when it has
 * egress rules.
 */
export const NETWORK_POLICY_RULES: TypeRules = {
  defaults: (policy) => {
    const spec = asRecord(policy, 'spec');
    for (const direction of ['ingress', 'egress']) {
      for (const rule of recordsAt(spec, direction)) for (const port of recordsAt(rule, 'ports')) defaultTo(port, 'protocol', 'TCP');
    }
    const types = spec['policyTypes'];
    if (!Array.isArray(types) || types.length === 0) {
      const egress = spec['egress'];
      spec['policyTypes'] = Array.isArray(egress) && egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
    }
  },
};
