/**
 * Upstream's default RBAC policy: the roles and bindings kube-apiserver keeps in place on every
 * start (see src/app/rbac-bootstrap.ts), as data in generated/rbac-bootstrap-policy.json.
 *
 * Where the data came from: upstream's generated fixtures in
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata/ of the 1.35 era (DRA, the kubelet's
 * fine-grained authorization and /statusz enabled by default; no creationTimestamp: null), as
 * stored copies of kubernetes/kubernetes (commit 008b3652: controller-roles.yaml,
 * namespace-roles.yaml, namespace-role-bindings.yaml) and of its mirrors where that copy was older
 * (aks-lts/kubernetes ec451e29: cluster-roles.yaml; openshift/kubernetes 95e062fd:
 * cluster-role-bindings.yaml, less its one OpenShift binding, system:openshift:public-info-viewer).
 * clusterRoles is cluster-roles.yaml then controller-roles.yaml (the system:controller:* roles);
 * clusterRoleBindings is cluster-role-bindings.yaml then controller-role-bindings.yaml, which
 * upstream derives from the controller roles (one binding each, to the kube-system service
 * account named by the role's suffix) and which is derived here the same way. The namespaced
 * fixtures are grouped by namespace. Fields the fixtures carry only because they print a List
 * (creationTimestamp: null, rules: null, metadata.namespace within a namespace's list) are left
 * out. The file is read at run time, beside this module, as the other generated files are
 * (scripts/bundle.mjs copies every generated/ folder's JSON next to the bundle).
 */
import { readFileSync } from 'node:fs';
import type { BindingObject, RoleObject } from './rbac-reconcile.js';

/** The default policy, in upstream's order (roles before the bindings that grant them). */
export interface BootstrapPolicy {
  readonly clusterRoles: readonly RoleObject[];
  readonly clusterRoleBindings: readonly BindingObject[];
  /** Namespace name -> the Roles that live there. */
  readonly namespaceRoles: Readonly<Record<string, readonly RoleObject[]>>;
  /** Namespace name -> the RoleBindings that live there. */
  readonly namespaceRoleBindings: Readonly<Record<string, readonly BindingObject[]>>;
}

/**
 * Makes tsc copy the JSON into dist/ beside this module. Its shape is not checked here (tsc types the
 * labels of a JSON array's objects as a union with undefined members, which no ObjectMeta accepts);
 * the tests check every object, and ensureBootstrapPolicy's tests create them all through the registry.
 */
export type BootstrapPolicyFile = typeof import('./generated/rbac-bootstrap-policy.json', { with: { type: 'json' } });

/**
 * Reads and parses the policy (~80 KB, synchronously). Every call returns fresh objects, so a
 * caller may change what it gets; callers that need it more than once keep it.
 */
export function loadBootstrapPolicy(): BootstrapPolicy {
  return JSON.parse(readFileSync(new URL('./generated/rbac-bootstrap-policy.json', import.meta.url), 'utf8')) as BootstrapPolicy;
}
