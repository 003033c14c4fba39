/**
 * Which level a request is audited at, and which stages are left out: the first rule of the
 * policy that matches the request decides (None when none does), as upstream's policy checker.
 * A rule matches when each of its lists that is given holds the request's value; a rule with
 * resources or namespaces matches resource requests only, one with non-resource URLs the others.
 */
import type { AuthorizationAttributes } from '../auth/authorizer.js';
import { AUDIT_LEVELS, type AuditLevel, type AuditPolicy, type AuditStage, type PolicyRule } from './policy.js';

export interface RequestAuditConfig {
  readonly level: AuditLevel;
  /** The policy's omitted stages and the rule's together. */
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** Whether `level` records at least as much as `other`. */
export function levelAtLeast(level: AuditLevel, other: AuditLevel): boolean {
  return AUDIT_LEVELS.indexOf(level) >= AUDIT_LEVELS.indexOf(other);
}

export function evaluateAuditPolicy(policy: AuditPolicy, attrs: AuthorizationAttributes): RequestAuditConfig {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attrs)) {
      return {
        level: rule.level,
        omitStages: union(policy.omitStages, rule.omitStages),
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
      };
    }
  }
  return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
}

function ruleMatches(rule: PolicyRule, attrs: AuthorizationAttributes): boolean {
  if (rule.users.length > 0 && !rule.users.includes(attrs.user.name)) return false;
  if (rule.userGroups.length > 0 && !attrs.user.groups.some((group) => rule.userGroups.includes(group))) return false;
  if (rule.verbs.length > 0 && !rule.verbs.includes(attrs.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) return matchesResource(rule, attrs);
  if (rule.nonResourceURLs.length > 0) return !attrs.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

/** `*`, the path itself, or a prefix ending in `*`. */
function pathMatches(path: string, spec: string): boolean {
  return spec === '*' || spec === path || (spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, '')));
}

function matchesResource(rule: PolicyRule, attrs: AuthorizationAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // Cluster-scoped requests have the namespace "".
  if (rule.namespaces.length > 0 && !rule.namespaces.includes(attrs.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const { resource, subresource, name } = attrs;
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  for (const gr of rule.resources) {
    if (gr.group !== attrs.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) continue;
    for (const spec of gr.resources) {
      if (spec === combined || spec === '*') return true;
      if (subresource !== '' && spec.startsWith('*/') && subresource === spec.replace(/^[*/]+/, '')) return true;
      if (spec.endsWith('/*') && resource === spec.replace(/[/*]+$/, '')) return true;
    }
  }
  return false;
}

function union(a: readonly AuditStage[], b: readonly AuditStage[]): readonly AuditStage[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...new Set([...a, ...b])];
}
