/**
 * How upstream reconciles an existing RBAC object with the one the server's default policy expects
 * (k8s.io/component-helpers/auth/rbac/reconciliation, in its additive mode, the one the
 * "rbac/bootstrap-roles" post-start hook uses). It only ever adds: missing label and annotation keys
 * (values already there win), missing rules (roles) and missing subjects (bindings). Extra
 * permissions an administrator added stay. Two things are not additive: a role that should not
 * aggregate loses its aggregationRule, and a binding whose roleRef differs is replaced whole
 * (roleRef cannot change in place). An object annotated `rbac.authorization.kubernetes.io/autoupdate:
 * "false"` is protected: the answer says what would change, and the caller writes nothing.
 *
 * Pure functions: the arguments are never changed; the object to write is a new copy.
 */
import { jsonEqual, metaOf, type KubeObject } from '../registry/object.js';
import { covers } from '../auth/rbac/covers.js';
import type { PolicyRule, RoleRef, Subject } from '../auth/rbac/rbac-types.js';

/** The annotation by which an administrator opts an object out of reconciliation ("false"). */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

/** A label selector of an aggregationRule, as stored. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly unknown[];
}

/** A Role or ClusterRole as stored (the fields reconciliation reads). */
export interface RoleObject extends KubeObject {
  rules?: readonly PolicyRule[] | null;
  aggregationRule?: { readonly clusterRoleSelectors?: readonly LabelSelector[] } | null;
}

/** A RoleBinding or ClusterRoleBinding as stored (the fields reconciliation reads). */
export interface BindingObject extends KubeObject {
  roleRef?: RoleRef;
  subjects?: readonly Subject[] | null;
}

/** What reconciling a role found. */
export interface RoleReconciliation {
  /** The role as it should be stored; undefined when the existing one needs nothing. */
  readonly update: RoleObject | undefined;
  /** The existing role opted out: `update` is what reconciling would write, and must not be written. */
  readonly protected: boolean;
  /** The expected permissions the existing role lacked, as atoms (see covers.ts). */
  readonly missingRules: readonly PolicyRule[];
}

/** What reconciling a binding found. */
export interface BindingReconciliation {
  /** The binding as it should be stored; undefined when the existing one needs nothing. */
  readonly update: BindingObject | undefined;
  /** The roleRef differs: `update` is the expected binding, to create after deleting the existing one. */
  readonly recreate: boolean;
  /** The existing binding opted out: nothing may be written. */
  readonly protected: boolean;
  readonly missingSubjects: readonly Subject[];
}

/** Reconciles an existing Role or ClusterRole with the expected one. */
export function reconcileRole(existing: RoleObject, expected: RoleObject): RoleReconciliation {
  const result = structuredClone(existing);
  let changed = mergeMetadata(result, expected);
  // Rules as the defaults wrote them are covered as they stand: a restart finds them so, and covers()
  // breaks every rule down into atoms, which is costly for the controllers' large roles.
  const missingRules = jsonEqual(existing.rules ?? [], expected.rules ?? []) ? [] : covers(existing.rules ?? [], expected.rules ?? []).uncovered;
  if (missingRules.length > 0) {
    result.rules = [...(existing.rules ?? []), ...missingRules];
    changed = true;
  }
  if (reconcileAggregation(result, existing, expected)) changed = true;
  return { update: changed ? result : undefined, protected: isProtected(existing), missingRules };
}

/** Reconciles an existing RoleBinding or ClusterRoleBinding with the expected one. */
export function reconcileBinding(existing: BindingObject, expected: BindingObject): BindingReconciliation {
  const isProtectedBinding = isProtected(existing);
  if (!sameRoleRef(existing.roleRef, expected.roleRef)) {
    return { update: structuredClone(expected), recreate: true, protected: isProtectedBinding, missingSubjects: expected.subjects ?? [] };
  }
  const result = structuredClone(existing);
  let changed = mergeMetadata(result, expected);
  const missingSubjects = missingFrom(existing.subjects ?? [], expected.subjects ?? []);
  if (missingSubjects.length > 0) {
    result.subjects = [...(existing.subjects ?? []), ...missingSubjects];
    changed = true;
  }
  return { update: changed ? result : undefined, recreate: false, protected: isProtectedBinding, missingSubjects };
}

function isProtected(object: KubeObject): boolean {
  return object.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';
}

/**
 * Adds the expected labels and annotations that `target` lacks; values already there win (that is
 * how autoupdate "false" survives). Returns whether anything was added.
 */
function mergeMetadata(target: KubeObject, expected: KubeObject): boolean {
  const meta = metaOf(target);
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const merged = { ...expected.metadata?.[field], ...meta[field] };
    if (jsonEqual(merged, meta[field] ?? {})) continue;
    meta[field] = merged;
    changed = true;
  }
  return changed;
}

/**
 * Brings `result`'s aggregationRule in line: removed when the expected role does not aggregate,
 * otherwise the expected selectors that are missing appended. Returns whether it changed.
 */
function reconcileAggregation(result: RoleObject, existing: RoleObject, expected: RoleObject): boolean {
  const had = existing.aggregationRule ?? undefined;
  const wanted = expected.aggregationRule ?? undefined;
  if (wanted === undefined) {
    if (had === undefined) return false;
    delete result.aggregationRule;
    return true;
  }
  const present = had?.clusterRoleSelectors ?? [];
  const missing = (wanted.clusterRoleSelectors ?? []).filter((selector) => !present.some((p) => sameSelector(p, selector)));
  if (missing.length === 0) return false;
  result.aggregationRule = { ...had, clusterRoleSelectors: [...present, ...structuredClone(missing)] };
  return true;
}

/** Equal as upstream's semantic equality sees selectors: an empty list or map is the same as none. */
function sameSelector(a: LabelSelector, b: LabelSelector): boolean {
  const labels = (s: LabelSelector) => s.matchLabels ?? {};
  const expressions = (s: LabelSelector) => s.matchExpressions ?? [];
  return jsonEqual(labels(a), labels(b)) && jsonEqual(expressions(a), expressions(b));
}

function sameRoleRef(a: RoleRef | undefined, b: RoleRef | undefined): boolean {
  return (a?.apiGroup ?? '') === (b?.apiGroup ?? '') && (a?.kind ?? '') === (b?.kind ?? '') && (a?.name ?? '') === (b?.name ?? '');
}

/** The subjects of `wanted` that `present` lacks, each once. */
function missingFrom(present: readonly Subject[], wanted: readonly Subject[]): Subject[] {
  const missing: Subject[] = [];
  for (const subject of wanted) {
    if (!present.some((p) => sameSubject(p, subject)) && !missing.some((m) => sameSubject(m, subject))) missing.push(subject);
  }
  return missing;
}

/** Field by field, an absent apiGroup or namespace being the empty one (stored service account subjects carry apiGroup ""). */
function sameSubject(a: Subject, b: Subject): boolean {
  return a.kind === b.kind && a.name === b.name && (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.namespace ?? '') === (b.namespace ?? '');
}
