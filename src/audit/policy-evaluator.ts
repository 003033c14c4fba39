/**
 * Which level a request is audited at, and which stages are left out: the first rule of the
 * policy that matches the request decides (None when none does), as upstream's policy evaluator.
 *
 * This runs for every request, so each policy is compiled once, at startup, into one predicate
 * per rule (lists become Sets, the resource specs are sorted by the form they take) and one
 * ready-made answer per rule; a request then costs the predicates and no allocation.
 */
import type { AuthorizationAttributes } from '../auth/authorizer.js';
import type { AuditLevel, AuditPolicy, AuditStage, GroupResources, PolicyRule } from './policy.js';

export interface RequestAuditConfig {
  readonly level: AuditLevel;
  /** The policy's omitted stages and the rule's together. */
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

const RANK: Readonly<Record<AuditLevel, number>> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

/** Whether `level` records at least as much as `other` (None < Metadata < Request < RequestResponse). */
export function levelAtLeast(level: AuditLevel, other: AuditLevel): boolean {
  return RANK[level] >= RANK[other];
}

/** A policy compiled for the requests' path (see above); the server makes one at startup. */
export class AuditPolicyEvaluator {
  readonly #compiled: CompiledPolicy;

  constructor(policy: AuditPolicy) {
    this.#compiled = compile(policy);
  }

  /** The audit configuration of one request; shared between requests: do not modify it. */
  evaluate(attrs: AuthorizationAttributes): RequestAuditConfig {
    for (const rule of this.#compiled.rules) {
      if (rule.matches(attrs)) return rule.config;
    }
    return this.#compiled.fallback;
  }
}

/** One request's configuration under `policy`, compiling it for this call alone (tests, one-offs). */
export function evaluateAuditPolicy(policy: AuditPolicy, attrs: AuthorizationAttributes): RequestAuditConfig {
  return new AuditPolicyEvaluator(policy).evaluate(attrs);
}

type Predicate = (attrs: AuthorizationAttributes) => boolean;

interface CompiledPolicy {
  readonly rules: readonly { readonly matches: Predicate; readonly config: RequestAuditConfig }[];
  readonly fallback: RequestAuditConfig;
}

function compile(policy: AuditPolicy): CompiledPolicy {
  const rules = policy.rules.map((rule) => ({
    matches: ruleMatcher(rule),
    config: Object.freeze({
      level: rule.level,
      omitStages: Object.freeze([...new Set([...policy.omitStages, ...rule.omitStages])]),
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
    }),
  }));
  const fallback = Object.freeze({ level: 'None' as const, omitStages: Object.freeze([...policy.omitStages]), omitManagedFields: policy.omitManagedFields });
  return { rules, fallback };
}

/** The rule's conditions, all of which must hold; a rule without any matches every request. */
function ruleMatcher(rule: PolicyRule): Predicate {
  const checks: Predicate[] = [];
  if (rule.users.length > 0) {
    const users = new Set(rule.users);
    checks.push((attrs) => users.has(attrs.user.name));
  }
  if (rule.userGroups.length > 0) {
    const groups = new Set(rule.userGroups);
    checks.push((attrs) => hasAny(groups, attrs.user.groups));
  }
  if (rule.verbs.length > 0) {
    const verbs = new Set(rule.verbs);
    checks.push((attrs) => verbs.has(attrs.verb));
  }
  // Namespaces or resources confine a rule to resource requests, and then its URLs are not looked at.
  if (rule.namespaces.length > 0 || rule.resources.length > 0) checks.push(resourceMatcher(rule));
  else if (rule.nonResourceURLs.length > 0) checks.push(urlMatcher(rule.nonResourceURLs));
  if (checks.length === 1) return checks[0]!;
  return (attrs) => {
    for (const check of checks) if (!check(attrs)) return false;
    return true;
  };
}

// Loops rather than some() and every(): their callbacks would be allocated per request.
function hasAny(set: ReadonlySet<string>, values: readonly string[]): boolean {
  for (const value of values) if (set.has(value)) return true;
  return false;
}

const NONE: readonly Predicate[] = [];

function resourceMatcher(rule: PolicyRule): Predicate {
  // Cluster-scoped requests have the namespace "", which a rule names to match them.
  const namespaces = rule.namespaces.length > 0 ? new Set(rule.namespaces) : undefined;
  const byGroup = new Map<string, Predicate[]>();
  for (const entry of rule.resources) {
    const list = byGroup.get(entry.group) ?? [];
    list.push(groupResourcesMatcher(entry));
    byGroup.set(entry.group, list);
  }
  const anyResource = rule.resources.length === 0;
  return (attrs) => {
    if (!attrs.isResourceRequest) return false;
    if (namespaces !== undefined && !namespaces.has(attrs.namespace)) return false;
    if (anyResource) return true;
    for (const matches of byGroup.get(attrs.apiGroup) ?? NONE) if (matches(attrs)) return true;
    return false;
  };
}

/**
 * One entry of a rule's resources, its group already matched. Its specs take four forms: `*`
 * (everything), `pods/*` (pods and each of its subresources), `*\/status` (that subresource of
 * any resource) and the rest, compared with `resource` or `resource/subresource`.
 */
function groupResourcesMatcher({ resources, resourceNames }: GroupResources): Predicate {
  if (resources.length === 0) return () => true;
  const names = resourceNames.length > 0 ? new Set(resourceNames) : undefined;
  const exact = new Set<string>();
  const subresourcesOfAny = new Set<string>();
  const everySubresourceOf = new Set<string>();
  let everything = false;
  for (const spec of resources) {
    if (spec === '*') everything = true;
    exact.add(spec);
    if (spec.startsWith('*/')) subresourcesOfAny.add(spec.slice(2));
    if (spec.endsWith('/*')) everySubresourceOf.add(spec.slice(0, -2));
  }
  return ({ resource, subresource, name }) => {
    if (names !== undefined && !names.has(name)) return false;
    if (everything || everySubresourceOf.has(resource)) return true;
    if (subresource === '') return exact.has(resource);
    return subresourcesOfAny.has(subresource) || exact.has(`${resource}/${subresource}`);
  };
}

/** Paths: an exact path, or a prefix followed by `*` (`*` alone: the empty prefix). Never a resource request. */
function urlMatcher(urls: readonly string[]): Predicate {
  const exact = new Set(urls);
  const prefixes = urls.filter((url) => url.endsWith('*')).map((url) => url.replace(/\*+$/, ''));
  return ({ isResourceRequest, path }) => {
    if (isResourceRequest) return false;
    if (exact.has(path)) return true;
    for (const prefix of prefixes) if (path.startsWith(prefix)) return true;
    return false;
  };
}
