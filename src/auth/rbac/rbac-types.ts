/**
 * The parts of rbac.authorization.k8s.io/v1 objects the RBAC authorizer reads: what a role grants
 * and whom a binding grants it to. Stored objects are validated before they get here (the registry's
 * strategies), so these are views of them, never of raw request bodies.
 */

/** One grant: verbs on resources of API groups (optionally named objects), or on non-resource URLs. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** Whom a binding names: a user, a group, or a service account (in `namespace`). */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

/** The role a binding grants: a Role of the binding's namespace, or a ClusterRole. */
export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

/** A Role or ClusterRole, reduced to what authorization needs. */
export interface RbacRole {
  readonly name: string;
  /** "" for a ClusterRole. */
  readonly namespace: string;
  readonly rules: readonly PolicyRule[];
}

/** A RoleBinding or ClusterRoleBinding, reduced to what authorization needs. */
export interface RbacBinding {
  readonly name: string;
  /** "" for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly Subject[];
}

/**
 * Where the authorizer finds roles and bindings (upstream's listers). Reads are synchronous: the
 * answers come from memory that watches keep current, so authorization never waits on storage.
 */
export interface RbacPolicySource {
  role(namespace: string, name: string): RbacRole | undefined;
  clusterRole(name: string): RbacRole | undefined;
  roleBindings(namespace: string): readonly RbacBinding[];
  clusterRoleBindings(): readonly RbacBinding[];
}
