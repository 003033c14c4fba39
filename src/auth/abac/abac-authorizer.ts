/**
 * `--authorization-mode=ABAC`: a request is allowed when a policy of the file matches it: its
 * subject (user or group), its verb (a read-only policy matches only get, list and watch), and then
 * either its resource (namespace, resource and API group, each exact or "*") or its non-resource
 * path (exact, "*", or a prefix ending in "*"). Nothing denies: an unmatched request gets no
 * opinion, so that later modes may still allow it.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, NonResourceRule, ResourceRule, RuleResolver, RuleSet } from '../authorizer.js';
import type { UserInfo } from '../user-info.js';
import type { AbacPolicySpec } from './abac-policy.js';

const ALLOWED: AuthorizationResult = { decision: 'allow', reason: '' };
const NO_POLICY_MATCHED: AuthorizationResult = { decision: 'no-opinion', reason: 'No policy matched.' };
const READ_ONLY_VERBS: readonly string[] = ['get', 'list', 'watch'];

export class AbacAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly policies: readonly AbacPolicySpec[]) {}

  authorize(attributes: AuthorizationAttributes): AuthorizationResult {
    return this.policies.some((policy) => policyMatches(policy, attributes)) ? ALLOWED : NO_POLICY_MATCHED;
  }

  /** Upstream's listing: a policy's rules apply in its namespace (or "*"), verbs by readonly. */
  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    for (const policy of this.policies) {
      if (!subjectMatches(policy, user)) continue;
      if (policy.namespace !== '*' && policy.namespace !== namespace) continue;
      const verbs = policy.readonly ? READ_ONLY_VERBS : ['*'];
      if (policy.resource !== '') resourceRules.push({ verbs, apiGroups: [policy.apiGroup], resources: [policy.resource] });
      if (policy.nonResourcePath !== '') nonResourceRules.push({ verbs, nonResourceURLs: [policy.nonResourcePath] });
    }
    return { resourceRules, nonResourceRules, incomplete: false };
  }
}

/** Whether the policy allows the request. */
export function policyMatches(policy: AbacPolicySpec, attributes: AuthorizationAttributes): boolean {
  if (!subjectMatches(policy, attributes.user)) return false;
  if (policy.readonly && !READ_ONLY_VERBS.includes(attributes.verb)) return false;
  return attributes.isResourceRequest ? resourceMatches(policy, attributes) : pathMatches(policy.nonResourcePath, attributes.path);
}

/**
 * A policy names a user, a group, or both; each one named must match. A policy naming neither
 * matches no one. No "*" is left to match here: loading turned it into system:authenticated.
 */
export function subjectMatches(policy: AbacPolicySpec, user: UserInfo): boolean {
  if (policy.user === '' && policy.group === '') return false;
  if (policy.user !== '' && policy.user !== user.name) return false;
  return policy.group === '' || user.groups.includes(policy.group);
}

function resourceMatches(policy: AbacPolicySpec, attributes: AuthorizationAttributes): boolean {
  const field = (value: string, wanted: string) => value === '*' || value === wanted;
  return field(policy.namespace, attributes.namespace) && field(policy.resource, attributes.resource) && field(policy.apiGroup, attributes.apiGroup);
}

function pathMatches(pattern: string, path: string): boolean {
  if (pattern === '*' || pattern === path) return true;
  // Upstream strips every trailing "*", so "/logs**" covers "/logs/..." as "/logs*" does.
  return pattern.endsWith('*') && path.startsWith(pattern.replace(/\*+$/, ''));
}
