/**
 * `--authorization-mode=RBAC`: a request is allowed when a rule of a role bound to its user allows
 * it. ClusterRoleBindings apply everywhere; RoleBindings only in their namespace, where they may
 * grant a Role of that namespace or a ClusterRole. Nothing denies: a request no rule allows gets no
 * opinion, and the next authorizer decides. Roles or bindings that cannot be resolved (a binding to
 * a missing role) are reported in the reason, upstream's way, but never stop other grants.
 */
import { goQuote } from '../../serialization/go-format.js';
import { goAggregate } from '../../util/go-aggregate.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, NonResourceRule, ResourceRule, RuleResolver, RuleSet } from '../authorizer.js';
import type { UserInfo } from '../user-info.js';
import { serviceAccountUserName } from '../service-account-user.js';
import { ruleAllows } from './rule-matching.js';
import type { PolicyRule, RbacBinding, RbacPolicySource, RbacRole, Subject } from './rbac-types.js';

/**
 * Called with each rule granted to a user, with a description of the grant made on demand (only an
 * allowing rule needs one), or with an error resolving a binding. Returns false to stop visiting.
 */
type RuleVisitor = (rule: PolicyRule | undefined, grant: (() => string) | undefined, error: string | undefined) => boolean;

const NO_OPINION: AuthorizationResult = { decision: 'no-opinion', reason: '' };

export class RbacAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly source: RbacPolicySource) {}

  authorize(attributes: AuthorizationAttributes): AuthorizationResult {
    let allowedBy: (() => string) | undefined;
    const errors: string[] = [];
    this.visitRulesFor(attributes.user, attributes.namespace, (rule, grant, error) => {
      if (rule !== undefined && ruleAllows(attributes, rule)) {
        allowedBy = grant;
        return false;
      }
      if (error !== undefined) errors.push(error);
      return true;
    });
    if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy()}` };
    return errors.length === 0 ? NO_OPINION : { decision: 'no-opinion', reason: `RBAC: ${goAggregate(errors)[0]}` };
  }

  /** Every rule granted to `user` in `namespace` ("" for cluster-wide grants only), as a rules review lists them. */
  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (rule, _grant, error) => {
      if (rule?.resources !== undefined && rule.resources.length > 0) {
        resourceRules.push({
          verbs: rule.verbs,
          ...(rule.apiGroups ? { apiGroups: rule.apiGroups } : {}),
          resources: rule.resources,
          ...(rule.resourceNames ? { resourceNames: rule.resourceNames } : {}),
        });
      }
      if (rule?.nonResourceURLs !== undefined && rule.nonResourceURLs.length > 0) {
        nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
      }
      if (error !== undefined) errors.push(error);
      return true;
    });
    return { resourceRules, nonResourceRules, incomplete: false, ...(errors.length > 0 ? { evaluationError: goAggregate(errors)[0]! } : {}) };
  }

  /** Every rule granted to `user` in `namespace`, whole, and the errors met resolving its bindings (escalation checks). */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (rule, _grant, error) => {
      if (rule !== undefined) rules.push(rule);
      if (error !== undefined) errors.push(error);
      return true;
    });
    return { rules, errors };
  }

  /** Every rule granted to `user`: cluster-wide bindings first, then the namespace's. Stops when `visit` says so. */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    if (!this.visitBindings(this.source.clusterRoleBindings(), user, '', visit)) return;
    if (namespace !== '') this.visitBindings(this.source.roleBindings(namespace), user, namespace, visit);
  }

  private visitBindings(bindings: readonly RbacBinding[], user: UserInfo, namespace: string, visit: RuleVisitor): boolean {
    for (const binding of bindings) {
      const subject = binding.subjects.find((s) => appliesTo(user, s, namespace));
      if (subject === undefined) continue;
      const role = this.roleOf(binding, namespace);
      if (typeof role === 'string') {
        if (!visit(undefined, undefined, role)) return false;
        continue;
      }
      const grant = () => describeGrant(binding, subject);
      for (const rule of role.rules) if (!visit(rule, grant, undefined)) return false;
    }
    return true;
  }

  /** The role `binding` grants, or why it cannot be found (in the words of upstream's listers). */
  private roleOf(binding: RbacBinding, namespace: string): RbacRole | string {
    const { kind, name } = binding.roleRef;
    if (kind === 'ClusterRole') return this.source.clusterRole(name) ?? `clusterrole.rbac.authorization.k8s.io ${goQuote(name)} not found`;
    if (kind === 'Role') return this.source.role(namespace, name) ?? `role.rbac.authorization.k8s.io ${goQuote(name)} not found`;
    return `unsupported role reference kind: ${goQuote(kind)}`;
  }
}

/** Whether a binding's subject names this user; a service account without a namespace is one of the binding's. */
function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.name === serviceAccountUserName(namespace, subject.name);
    }
    default:
      return false;
  }
}

/** `ClusterRoleBinding "b" of ClusterRole "r" to User "alice"`, as upstream's allow reasons read. */
function describeGrant(binding: RbacBinding, subject: Subject): string {
  const what = binding.namespace === '' ? `ClusterRoleBinding ${goQuote(binding.name)}` : `RoleBinding ${goQuote(`${binding.name}/${binding.namespace}`)}`;
  return `${what} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, binding.namespace)}`;
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind !== 'ServiceAccount') return `${subject.kind} ${goQuote(subject.name)}`;
  return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
}
