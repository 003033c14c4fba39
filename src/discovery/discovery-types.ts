/**
 * Wire shapes of the discovery documents (meta/v1 APIVersions, APIGroupList, APIGroup,
 * APIResourceList and apidiscovery.k8s.io APIGroupDiscoveryList). Field order in these interfaces
 * is the order upstream writes, and the builders create objects in that order.
 */

export interface ServerAddressByClientCIDR {
  readonly clientCIDR: string;
  readonly serverAddress: string;
}

/** GET /api */
export interface APIVersions {
  readonly kind: 'APIVersions';
  readonly versions: readonly string[];
  readonly serverAddressByClientCIDRs: readonly ServerAddressByClientCIDR[];
}

export interface GroupVersionForDiscovery {
  readonly groupVersion: string;
  readonly version: string;
}

/** One entry of /apis, and GET /apis/{group} with kind and apiVersion. */
export interface APIGroup {
  readonly kind?: 'APIGroup';
  readonly apiVersion?: 'v1';
  readonly name: string;
  readonly versions: readonly GroupVersionForDiscovery[];
  readonly preferredVersion: GroupVersionForDiscovery;
}

/** GET /apis */
export interface APIGroupList {
  readonly kind: 'APIGroupList';
  readonly apiVersion: 'v1';
  readonly groups: readonly APIGroup[];
}

/** One resource or subresource ("pods/status") of an APIResourceList. */
export interface APIResource {
  readonly name: string;
  /** "" for subresources. */
  readonly singularName: string;
  readonly namespaced: boolean;
  /** Only when the kind lives in another group-version (pods/eviction: policy/v1). */
  readonly group?: string;
  readonly version?: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly storageVersionHash?: string;
}

/** GET /api/v1 and /apis/{group}/{version}. The core list carries no apiVersion, as upstream's. */
export interface APIResourceList {
  readonly kind: 'APIResourceList';
  readonly apiVersion?: 'v1';
  readonly groupVersion: string;
  readonly resources: readonly APIResource[];
}

export interface ResponseKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface APISubresourceDiscovery {
  readonly subresource: string;
  readonly responseKind: ResponseKind;
  readonly verbs: readonly string[];
}

export interface APIResourceDiscovery {
  readonly resource: string;
  /** group and version are "" when they are the parent's. */
  readonly responseKind: ResponseKind;
  readonly scope: 'Namespaced' | 'Cluster';
  readonly singularResource: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly subresources?: readonly APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  readonly version: string;
  readonly resources: readonly APIResourceDiscovery[];
  readonly freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  /** The core group's item has no name. */
  readonly metadata: { readonly name?: string; readonly creationTimestamp: null };
  readonly versions: readonly APIVersionDiscovery[];
}

/** The aggregated discovery document of /api or /apis. */
export interface APIGroupDiscoveryList {
  readonly kind: 'APIGroupDiscoveryList';
  readonly apiVersion: `apidiscovery.k8s.io/${AggregatedDiscoveryVersion}`;
  readonly metadata: Record<string, never>;
  readonly items: readonly APIGroupDiscovery[];
}

/** The versions of the aggregated discovery format clients may ask for. */
export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';
