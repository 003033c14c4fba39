/**
 * The unaggregated discovery documents: /api, /api/v1, /apis, /apis/{group} and
 * /apis/{group}/{version}. Pure functions of the catalog; callers may cache the results per
 * catalog instance.
 */
import type { Catalog } from '../registry/catalog/catalog.js';
import { apiVersionOf, type ApiGroupInfo, type ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type {
  APIGroup,
  APIGroupList,
  APIResource,
  APIResourceList,
  APIVersions,
  GroupVersionForDiscovery,
} from './discovery-types.js';


/**
 * GET /api.
 * @param serverAddress host:port clients should use, reported for every client address (0.0.0.0/0).
 */
export function apiVersions(catalog: Catalog, serverAddress: string): APIVersions {
  return {
    kind: 'APIVersions',
    versions: catalog.group('')?.versions ?? [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** GET /apis: every served named group (the core group is not listed here). */
export function apiGroupList(catalog: Catalog): APIGroupList {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: catalog.groups().filter((g) => g.name !== '').map(groupEntry),
  };
}

/** GET /apis/{group}, or undefined when the group is not served (the caller answers 404). */
export function apiGroup(catalog: Catalog, name: string): APIGroup | undefined {
  const group = name === '' ? undefined : catalog.group(name);
  return group ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group) } : undefined;
}

/** GET /api/v1 or /apis/{group}/{version}, or undefined when the group-version is not served. */
export function apiResourceList(catalog: Catalog, group: string, version: string): APIResourceList | undefined {
  if (!catalog.servesGroupVersion(group, version)) return undefined;
  const resources = catalog.resources(group, version).flatMap(apiResources);
  resources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groupVersion = apiVersionOf({ group, version });
  return group === ''
    ? { kind: 'APIResourceList', groupVersion, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}

function groupEntry(group: ApiGroupInfo): APIGroup {
  const entry = (version: string): GroupVersionForDiscovery => ({ groupVersion: apiVersionOf({ group: group.name, version }), version });
  return { name: group.name, versions: group.versions.map(entry), preferredVersion: entry(group.preferredVersion) };
}

/** The resource and each of its subresources, as separate APIResource entries. */
function apiResources(def: ResourceDefinition): APIResource[] {
  const main: APIResource = {
    name: def.resource,
    singularName: def.singularName,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: def.verbs,
    ...(def.shortNames.length > 0 && { shortNames: def.shortNames }),
    ...(def.categories.length > 0 && { categories: def.categories }),
    ...(def.storageVersionHash !== undefined && { storageVersionHash: def.storageVersionHash }),
  };
  const subs = Object.values(def.subresources).map((sub): APIResource => ({
    name: `${def.resource}/${sub.name}`,
    singularName: '',
    namespaced: def.namespaced,
    ...(sub.group !== undefined && { group: sub.group, version: sub.version ?? '' }),
    kind: sub.kind,
    verbs: sub.verbs,
  }));
  return [main, ...subs];
}
