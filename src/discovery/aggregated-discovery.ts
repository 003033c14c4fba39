/**
 * The aggregated discovery documents (apidiscovery.k8s.io APIGroupDiscoveryList) that kubectl 1.30+
 * asks for with `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`,
 * one for /api and one for /apis, and their ETag.
 */
import { createHash } from 'node:crypto';
import type { Catalog } from '../registry/catalog/catalog.js';
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type {
  AggregatedDiscoveryVersion,
  APIGroupDiscovery,
  APIGroupDiscoveryList,
  APIResourceDiscovery,
} from './discovery-types.js';

/** The media type a response carries for `version`, e.g. application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList. */
export function aggregatedDiscoveryMediaType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/**
 * The aggregated document of /api (`root` "api": the core group only) or /apis (every named group).
 * v2 and v2beta1 share the shape; only apiVersion differs.
 */
export function aggregatedDiscovery(catalog: Catalog, root: 'api' | 'apis', version: AggregatedDiscoveryVersion = 'v2'): APIGroupDiscoveryList {
  const groups = catalog.groups().filter((g) => (root === 'api') === (g.name === ''));
  const items = groups.map((group): APIGroupDiscovery => ({
    metadata: group.name === '' ? { creationTimestamp: null } : { name: group.name, creationTimestamp: null },
    versions: group.versions.map((v) => ({
      version: v,
      resources: catalog.resources(group.name, v).map(resourceDiscovery),
      freshness: 'Current',
    })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

/**
 * The ETag upstream sends with an aggregated discovery response: the quoted uppercase hex SHA-512
 * of the JSON body. Serve it with `Vary: Accept` and `Cache-Control: public`, and answer 304 when
 * If-None-Match equals it.
 * @param body the exact JSON text being served.
 */
export function discoveryETag(body: string): string {
  return `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
}

function resourceDiscovery(def: ResourceDefinition): APIResourceDiscovery {
  const subresources = Object.values(def.subresources).map((sub) => ({
    subresource: sub.name,
    responseKind: { group: sub.group ?? '', version: sub.version ?? '', kind: sub.kind },
    verbs: sub.verbs,
  }));
  return {
    resource: def.resource,
    responseKind: { group: '', version: '', kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singularName,
    verbs: def.verbs,
    ...(def.shortNames.length > 0 && { shortNames: def.shortNames }),
    ...(def.categories.length > 0 && { categories: def.categories }),
    ...(subresources.length > 0 && { subresources }),
  };
}
