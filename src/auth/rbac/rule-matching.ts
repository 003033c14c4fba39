/**
 * Whether one RBAC rule allows a request, as upstream decides it: `*` matches any verb, group,
 * resource or URL; `*\/status` matches the status subresource of every resource; resourceNames
 * narrow a rule only when present; a URL rule ending in `*` matches by prefix.
 */
import type { AuthorizationAttributes } from '../authorizer.js';
import type { PolicyRule } from './rbac-types.js';

export function ruleAllows(attributes: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!listMatches(rule.verbs, attributes.verb)) return false;
  if (!attributes.isResourceRequest) return urlMatches(rule.nonResourceURLs, attributes.path);
  const combined = attributes.subresource === '' ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  return (
    listMatches(rule.apiGroups, attributes.apiGroup) &&
    resourceMatches(rule.resources, combined, attributes.subresource) &&
    nameMatches(rule.resourceNames, attributes.name)
  );
}

/** Whether any rule of `rules` allows the request. */
export function rulesAllow(attributes: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((rule) => ruleAllows(attributes, rule));
}

function listMatches(values: readonly string[] | undefined, wanted: string): boolean {
  if (values === undefined) return false;
  for (const value of values) if (value === '*' || value === wanted) return true;
  return false;
}

function resourceMatches(resources: readonly string[] | undefined, combined: string, subresource: string): boolean {
  if (resources === undefined) return false;
  for (const resource of resources) {
    if (resource === '*' || resource === combined) return true;
    if (subresource !== '' && resource.length === subresource.length + 2 && resource.startsWith('*/') && resource.endsWith(subresource)) return true;
  }
  return false;
}

function nameMatches(names: readonly string[] | undefined, wanted: string): boolean {
  return names === undefined || names.length === 0 || names.includes(wanted);
}

function urlMatches(urls: readonly string[] | undefined, path: string): boolean {
  if (urls === undefined) return false;
  for (const url of urls) {
    if (url === '*' || url === path) return true;
    // Every trailing star goes, as Go's TrimRight: "/api/**" is the prefix "/api/".
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}
