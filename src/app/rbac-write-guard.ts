/**
 * Upstream's escalation prevention for the four RBAC types, as a registry WriteGuard: a user may
 * write a Role or ClusterRole only with rules it holds itself (or when allowed `escalate` on it),
 * and a binding only to a role whose rules it holds (or when allowed `bind` on that role). Members of
 * system:masters may write anything. Writes that only touch what garbage collection changes
 * (ownerReferences, finalizers) pass, so that collecting a role never needs its rules.
 */
import { forbiddenOn, internalError, isNotFound, notFound, type ApiError } from '../api/errors.js';
import { resourceAttributes, type Authorizer } from '../auth/authorizer.js';
import { SYSTEM_MASTERS } from '../auth/authenticator.js';
import { escalationError, FULL_AUTHORITY } from '../auth/rbac/escalation.js';
import type { RbacAuthorizer } from '../auth/rbac/rbac-authorizer.js';
import { policyRulesOf, type RbacKind } from '../auth/rbac/rbac-policy-index.js';
import type { PolicyRule } from '../auth/rbac/rbac-types.js';
import type { UserInfo } from '../auth/user-info.js';
import { RBAC_GROUP } from '../registry/strategies/rbac-rules.js';
import { jsonEqual, metaOf, type KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import type { GuardedWrite, WriteGuard } from '../registry/store/store-context.js';
import { isPromise } from '../util/promises.js';
import { goQuote } from '../serialization/go-format.js';

export interface RbacWriteGuardDeps {
  /** Asks whether the user may `escalate` or `bind` (the server's authorizer). */
  readonly authorizer: Authorizer;
  /** The rules a user holds (RBAC's, whatever the authorization modes). */
  readonly rules: Pick<RbacAuthorizer, 'policyRulesFor'>;
  /** Roles and ClusterRoles as stored, for the role a binding grants. */
  readonly roles: () => ResourceStore;
  readonly clusterRoles: () => ResourceStore;
}

const RESOURCES: Record<RbacKind, string> = { Role: 'roles', ClusterRole: 'clusterroles', RoleBinding: 'rolebindings', ClusterRoleBinding: 'clusterrolebindings' };

export class RbacWriteGuard implements WriteGuard {
  private readonly resource: string;
  private readonly isRole: boolean;

  constructor(
    private readonly kind: RbacKind,
    private readonly deps: RbacWriteGuardDeps,
  ) {
    this.resource = RESOURCES[kind];
    this.isRole = kind === 'Role' || kind === 'ClusterRole';
  }

  async checkCreate(object: KubeObject, write: GuardedWrite): Promise<void> {
    if (isPrivileged(write.user)) return;
    await this.check(object, undefined, write);
  }

  async checkUpdate(object: KubeObject, old: KubeObject, write: GuardedWrite): Promise<void> {
    if (isPrivileged(write.user)) return;
    await this.check(object, old, write);
  }

  private async check(object: KubeObject, old: KubeObject | undefined, write: GuardedWrite): Promise<void> {
    if (this.isRole) {
      if (await this.allowed(write.user, { verb: 'escalate', apiGroup: RBAC_GROUP, resource: this.resource, name: write.name, namespace: write.namespace })) return;
      if (old !== undefined && onlyGarbageCollectionFields(object, old)) return;
      this.confirm(object, write, policyRulesOf(object));
      if (this.kind === 'ClusterRole' && (hasAggregationRule(object) || (old !== undefined && hasAggregationRule(old)))) {
        if (this.missing(write, FULL_AUTHORITY) !== undefined) throw this.forbidden(object, 'must have cluster-admin privileges to use the aggregationRule');
      }
      return;
    }
    if (old !== undefined && onlyGarbageCollectionFields(object, old)) return;
    const roleRef = (object['roleRef'] ?? {}) as Record<string, unknown>;
    const ref = { apiGroup: String(roleRef['apiGroup'] || RBAC_GROUP), kind: String(roleRef['kind'] ?? ''), name: String(roleRef['name'] ?? '') };
    const roleResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
    if (roleResource && (await this.allowed(write.user, { verb: 'bind', apiGroup: ref.apiGroup, resource: roleResource, name: ref.name, namespace: write.namespace }))) return;
    this.confirm(object, write, await this.roleRules(ref.kind, ref.name, write.namespace));
  }

  /** Throws 403 when the user does not hold every rule of `wanted`. */
  private confirm(object: KubeObject, write: GuardedWrite, wanted: readonly PolicyRule[]): void {
    const why = this.missing(write, wanted);
    if (why !== undefined) throw this.forbidden(object, why);
  }

  private missing(write: GuardedWrite, wanted: readonly PolicyRule[]): string | undefined {
    return escalationError(write.user, this.deps.rules.policyRulesFor(write.user, write.namespace), wanted);
  }

  private async allowed(user: UserInfo, a: { verb: string; apiGroup: string; resource: string; name: string; namespace: string }): Promise<boolean> {
    const result = this.deps.authorizer.authorize(resourceAttributes(user, { ...a, apiVersion: '*' }));
    return (isPromise(result) ? await result : result).decision === 'allow';
  }

  /** The rules of the role a binding grants, read as stored (404 when it does not exist, as upstream). */
  private async roleRules(kind: string, name: string, namespace: string): Promise<readonly PolicyRule[]> {
    if (kind !== 'Role' && kind !== 'ClusterRole') throw internalError(new Error(`unsupported role reference kind: ${goQuote(kind)}`));
    const store = kind === 'Role' ? this.deps.roles() : this.deps.clusterRoles();
    try {
      return policyRulesOf(await store.get(kind === 'Role' ? namespace : '', name, { kind: 'consistent' }));
    } catch (err) {
      if (isNotFound(err)) throw notFound({ resource: kind === 'Role' ? 'roles' : 'clusterroles', group: RBAC_GROUP, name });
      throw err;
    }
  }

  private forbidden(object: KubeObject, why: string): ApiError {
    return forbiddenOn({ resource: this.resource, group: RBAC_GROUP, name: metaOf(object).name ?? '' }, why);
  }
}

function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(SYSTEM_MASTERS);
}

function hasAggregationRule(object: KubeObject): boolean {
  const rule = object['aggregationRule'] as { clusterRoleSelectors?: unknown[] } | undefined;
  return Array.isArray(rule?.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}

/**
 * Whether the write changes only what the garbage collector writes (owner references and
 * finalizers), as upstream's IsOnlyMutatingGCFields; the fields the server maintains are ignored.
 */
function onlyGarbageCollectionFields(object: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, ...metadata } = metaOf(o) as Record<string, unknown>;
    return { ...o, metadata };
  };
  return jsonEqual(strip(object), strip(old));
}
