/**
 * The built-in resource types of upstream 1.35, from the generated catalog.json. Which
 * group-versions are served follows upstream's defaults unless the caller decides otherwise
 * (the server passes its --runtime-config here).
 */
import { Catalog, type CatalogGroupVersion } from './catalog.js';
import { readGeneratedText, type GeneratedCatalogFile, type GeneratedGroupVersion, type GeneratedResource } from './generated-files.js';
import type { GroupVersion, ResourceDefinition, SubresourceDefinition } from './resource-definition.js';

/** Decides whether a built-in group-version is served; `enabledByDefault` is upstream's default. */
export type GroupVersionFilter = (gv: GroupVersion, enabledByDefault: boolean) => boolean;

/** Every built-in group-version known to the generated catalog, with upstream's default enablement. */
export function builtinGroupVersions(): readonly (GroupVersion & { readonly enabledByDefault: boolean })[] {
  return readCatalogFile().groupVersions.map(({ group, version, enabledByDefault }) => ({ group, version, enabledByDefault }));
}

/**
 * Builds the catalog of built-in types. Reads one ~60 KB file; callers build it once and keep it.
 * @param filter which group-versions to serve; defaults to upstream 1.35's defaults.
 */
export function loadBuiltinCatalog(filter: GroupVersionFilter = (_gv, enabledByDefault) => enabledByDefault): Catalog {
  const served = readCatalogFile().groupVersions.filter((gv) => filter(gv, gv.enabledByDefault));
  return new Catalog(served.map(toCatalogGroupVersion));
}

function readCatalogFile(): GeneratedCatalogFile {
  return JSON.parse(readGeneratedText('catalog.json')) as GeneratedCatalogFile;
}

function toCatalogGroupVersion(gv: GeneratedGroupVersion): CatalogGroupVersion {
  return { group: gv.group, version: gv.version, resources: gv.resources.map((r) => toDefinition(gv, r)) };
}

function toDefinition({ group, version }: GeneratedGroupVersion, r: GeneratedResource): ResourceDefinition {
  const subresources: Record<string, SubresourceDefinition> = {};
  for (const [name, sub] of Object.entries(r.subresources ?? {})) if (sub) subresources[name] = { name, ...sub };
  return {
    group,
    version,
    resource: r.resource,
    singularName: r.singularName,
    kind: r.kind,
    listKind: r.listKind,
    namespaced: r.namespaced,
    verbs: r.verbs,
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    subresources,
    schema: r.schema,
    tableColumns: r.tableColumns,
    storageVersionHash: r.storageVersionHash,
    storageVersion: r.storageVersion,
  };
}
