/**
 * The shape of one served resource type. Built-in types come from the generated catalog
 * (scripts/generate-builtin.mjs); custom resource definitions produce the same shape at run time,
 * so everything downstream (router, handlers, discovery, OpenAPI) treats both alike.
 */

/** An API group and version; `group` is "" for the core group. */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** The `apiVersion` of a group and version: `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** Identifies a kind: `{group: 'apps', version: 'v1', kind: 'Deployment'}`. */
export interface GroupVersionKind extends GroupVersion {
  readonly kind: string;
}

/** Identifies a resource type by its plural URL name: `{group: '', version: 'v1', resource: 'pods'}`. */
export interface GroupVersionResource extends GroupVersion {
  readonly resource: string;
}

/** One column of the Table representation (what `kubectl get` prints). */
export interface TableColumn {
  readonly name: string;
  /** OpenAPI type of the cell: string, integer, number, boolean, date. */
  readonly type: string;
  /** OpenAPI format; "name" marks the column holding the object's name. */
  readonly format: string;
  /** 0 for columns always shown, higher for `-o wide` only. */
  readonly priority: number;
}

/**
 * A subresource such as `status`, `scale`, `binding`, `eviction`, `log` or `exec`.
 * `group`/`version` are set only when the body's kind lives in another group-version than its
 * parent (deployments/scale answers autoscaling/v1 Scale); discovery reports them the same way.
 */
export interface SubresourceDefinition {
  /** The path segment after the object's name, e.g. "status". */
  readonly name: string;
  /** Kind of the request/response body, e.g. "Scale", "Eviction", "PodExecOptions". */
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  /** Verbs allowed on the subresource, sorted as discovery lists them. */
  readonly verbs: readonly string[];
  /** Schema definition name of the body, when the schema has one (connect options have none served). */
  readonly schema?: string;
}

/** Everything the server knows about one resource type in one group-version. */
export interface ResourceDefinition {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural name used in URLs, e.g. "pods". */
  readonly resource: string;
  /** Lowercase singular name, e.g. "pod". */
  readonly singularName: string;
  readonly kind: string;
  /** Kind of its collections, e.g. "PodList". */
  readonly listKind: string;
  readonly namespaced: boolean;
  /** Verbs on the main resource, sorted (get, list, watch, create, update, patch, delete, deletecollection...). */
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  /** Category names such as "all", used by `kubectl get all`. */
  readonly categories: readonly string[];
  /** Subresources keyed by name, in name order. */
  readonly subresources: Readonly<Record<string, SubresourceDefinition>>;
  /** Schema definition name of the kind, e.g. "io.k8s.api.core.v1.Pod"; undefined when the type has no schema. */
  readonly schema?: string;
  /** Table columns served for `as=Table`; undefined means the default table (Name, Created At). */
  readonly tableColumns?: readonly TableColumn[];
  /**
   * Upstream's storage version hash for discovery (base64 of the first 8 bytes of the SHA-256 of
   * "group/version/kind" of the storage version); undefined for types that are not stored.
   */
  readonly storageVersionHash?: string;
  /** The version of this group in which objects are stored (equals `version` for most types). */
  readonly storageVersion?: string;
}

/** The group-versions of one API group as discovery shows them. */
export interface ApiGroupInfo {
  readonly name: string;
  /** Served versions, preferred first (upstream's priority order). */
  readonly versions: readonly string[];
  readonly preferredVersion: string;
}

/**
 * The type a subresource's request body is decoded and schema-checked as (a pod's Binding,
 * Eviction, ...): the parent with the subresource's kind, and its group, version and schema where
 * the catalog names them. The parent itself when it has no such subresource.
 */
export function subresourceBodyDefinition(parent: ResourceDefinition, name: string): ResourceDefinition {
  const sub = parent.subresources[name];
  if (!sub) return parent;
  return {
    ...parent,
    kind: sub.kind,
    ...(sub.group !== undefined ? { group: sub.group } : {}),
    ...(sub.version !== undefined ? { version: sub.version } : {}),
    ...(sub.schema ? { schema: sub.schema } : {}),
  };
}
