/**
 * The roles and bindings of the cluster, in memory, as the RBAC authorizer reads them (upstream's
 * informer caches). Whoever owns the watches feeds it: each stored Role, ClusterRole, RoleBinding
 * and ClusterRoleBinding as it is added, changed or deleted. Binding lists are kept in name order
 * and rebuilt only after a change, so an authorization allocates nothing to read them.
 */
import type { PolicyRule, RbacBinding, RbacPolicySource, RbacRole, RoleRef, Subject } from './rbac-types.js';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/** A stored RBAC object as JSON (the watch cache's objects, validated when written). */
type StoredObject = Readonly<Record<string, unknown>>;

/** Bindings of one namespace ("" for ClusterRoleBindings) by name, and in name order once asked for. */
class BindingSet {
  readonly byName = new Map<string, RbacBinding>();
  private ordered: readonly RbacBinding[] | undefined;

  list(): readonly RbacBinding[] {
    this.ordered ??= [...this.byName.keys()].sort().map((name) => this.byName.get(name)!);
    return this.ordered;
  }

  changed(): void {
    this.ordered = undefined;
  }
}

const NONE: readonly RbacBinding[] = Object.freeze([]);

export class RbacPolicyIndex implements RbacPolicySource {
  /** Roles by `namespace/name`, ClusterRoles by `/name`. */
  private readonly roles = new Map<string, RbacRole>();
  /** Bindings by namespace; ClusterRoleBindings under "". */
  private readonly bindings = new Map<string, BindingSet>();

  role(namespace: string, name: string): RbacRole | undefined {
    return namespace === '' ? undefined : this.roles.get(`${namespace}/${name}`);
  }

  clusterRole(name: string): RbacRole | undefined {
    return this.roles.get(`/${name}`);
  }

  roleBindings(namespace: string): readonly RbacBinding[] {
    return namespace === '' ? NONE : (this.bindings.get(namespace)?.list() ?? NONE);
  }

  clusterRoleBindings(): readonly RbacBinding[] {
    return this.bindings.get('')?.list() ?? NONE;
  }

  /** Records `object` of `kind` as it is now stored. */
  put(kind: RbacKind, object: StoredObject): void {
    const { namespace, name } = identity(kind, object);
    if (kind === 'Role' || kind === 'ClusterRole') {
      this.roles.set(`${namespace}/${name}`, { name, namespace, rules: policyRulesOf(object) });
      return;
    }
    const set = this.bindingSet(namespace);
    set.byName.set(name, { name, namespace, roleRef: roleRefOf(object), subjects: subjectsOf(object) });
    set.changed();
  }

  /** Forgets `object` of `kind` (deleted). */
  remove(kind: RbacKind, object: StoredObject): void {
    const { namespace, name } = identity(kind, object);
    this.removeNamed(kind, namespace, name);
  }

  /** Forgets the object of `kind` named `name` in `namespace` ("" for cluster-scoped kinds). */
  removeNamed(kind: RbacKind, namespace: string, name: string): void {
    if (kind === 'Role' || kind === 'ClusterRole') {
      this.roles.delete(`${namespace}/${name}`);
      return;
    }
    const set = this.bindings.get(namespace);
    if (set?.byName.delete(name)) set.changed();
  }

  /** The namespace and name of every object of `kind` held now, by `namespace/name`. */
  snapshot(kind: RbacKind): Map<string, { readonly namespace: string; readonly name: string }> {
    const held = new Map<string, { namespace: string; name: string }>();
    if (kind === 'Role' || kind === 'ClusterRole') {
      for (const role of this.roles.values()) if ((role.namespace === '') === (kind === 'ClusterRole')) held.set(`${role.namespace}/${role.name}`, role);
      return held;
    }
    for (const [namespace, set] of this.bindings) {
      if ((namespace === '') !== (kind === 'ClusterRoleBinding')) continue;
      for (const binding of set.byName.values()) held.set(`${namespace}/${binding.name}`, binding);
    }
    return held;
  }

  private bindingSet(namespace: string): BindingSet {
    let set = this.bindings.get(namespace);
    if (set === undefined) this.bindings.set(namespace, (set = new BindingSet()));
    return set;
  }
}

function identity(kind: RbacKind, object: StoredObject): { namespace: string; name: string } {
  const metadata = (object['metadata'] ?? {}) as Record<string, unknown>;
  const clusterScoped = kind === 'ClusterRole' || kind === 'ClusterRoleBinding';
  return { namespace: clusterScoped ? '' : String(metadata['namespace'] ?? ''), name: String(metadata['name'] ?? '') };
}

/** A stored role's rules, typed (fields that are not lists of strings read as absent). */
export function policyRulesOf(object: StoredObject): PolicyRule[] {
  const rules = object['rules'];
  if (!Array.isArray(rules)) return [];
  return rules.map((rule: Record<string, unknown>) => ({
    verbs: strings(rule['verbs']) ?? [],
    ...optional('apiGroups', strings(rule['apiGroups'])),
    ...optional('resources', strings(rule['resources'])),
    ...optional('resourceNames', strings(rule['resourceNames'])),
    ...optional('nonResourceURLs', strings(rule['nonResourceURLs'])),
  }));
}

function roleRefOf(object: StoredObject): RoleRef {
  const ref = (object['roleRef'] ?? {}) as Record<string, unknown>;
  return { apiGroup: String(ref['apiGroup'] ?? ''), kind: String(ref['kind'] ?? ''), name: String(ref['name'] ?? '') };
}

function subjectsOf(object: StoredObject): readonly Subject[] {
  const subjects = object['subjects'];
  if (!Array.isArray(subjects)) return [];
  return subjects.map((s: Record<string, unknown>) => ({
    kind: String(s['kind'] ?? ''),
    name: String(s['name'] ?? ''),
    ...(typeof s['namespace'] === 'string' ? { namespace: s['namespace'] } : {}),
  }));
}

function strings(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function optional<K extends string>(key: K, value: readonly string[] | undefined): { [P in K]?: readonly string[] } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: readonly string[] };
}
