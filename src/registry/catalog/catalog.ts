/**
 * The served resource types, indexed for the lookups the router, handlers and discovery make on
 * every request. A Catalog is immutable: adding custom resource types builds a new one (`extend`),
 * so a request always sees one consistent set.
 */
import type {
  ApiGroupInfo,
  GroupVersion,
  ResourceDefinition,
} from './resource-definition.js';

/** One served group-version and its resource types. */
export interface CatalogGroupVersion extends GroupVersion {
  readonly resources: readonly ResourceDefinition[];
}

const gvKey = (group: string, version: string): string => `${group}/${version}`;

export class Catalog {
  readonly #groupVersions: readonly CatalogGroupVersion[];
  readonly #byResource = new Map<string, ResourceDefinition>();
  readonly #byKind = new Map<string, ResourceDefinition>();
  readonly #byGroupVersion = new Map<string, CatalogGroupVersion>();
  readonly #groups: readonly ApiGroupInfo[];

  /**
   * @param groupVersions served group-versions in discovery order: groups in priority order, and
   *   inside a group the preferred version first. A group-version may appear only once.
   * @throws Error when a group-version, resource or kind appears twice.
   */
  constructor(groupVersions: readonly CatalogGroupVersion[]) {
    this.#groupVersions = groupVersions;
    for (const gv of groupVersions) {
      const key = gvKey(gv.group, gv.version);
      if (this.#byGroupVersion.has(key)) throw new Error(`catalog: group-version ${key} listed twice`);
      this.#byGroupVersion.set(key, gv);
      for (const def of gv.resources) {
        const resourceKey = `${key}/${def.resource}`;
        if (this.#byResource.has(resourceKey)) throw new Error(`catalog: resource ${resourceKey} listed twice`);
        this.#byResource.set(resourceKey, def);
        // Several resources may share a kind (bindings and pods/binding answer Binding); the
        // first listed is the one that owns it, as upstream's RESTMapper picks.
        const kindKey = `${key}/${def.kind}`;
        if (!this.#byKind.has(kindKey)) this.#byKind.set(kindKey, def);
      }
    }
    this.#groups = groupInfos(groupVersions);
  }

  /** The definition of `resource` (plural, e.g. "pods") in group/version, if served. */
  resource(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.#byResource.get(`${gvKey(group, version)}/${resource}`);
  }

  /** The resource type serving `kind` in group/version, if any. */
  kind(group: string, version: string, kind: string): ResourceDefinition | undefined {
    return this.#byKind.get(`${gvKey(group, version)}/${kind}`);
  }

  /** Resource types of one group-version, sorted by name; empty when it is not served. */
  resources(group: string, version: string): readonly ResourceDefinition[] {
    return this.#byGroupVersion.get(gvKey(group, version))?.resources ?? [];
  }

  /** Whether group/version is served. */
  servesGroupVersion(group: string, version: string): boolean {
    return this.#byGroupVersion.has(gvKey(group, version));
  }

  /** Served group-versions in discovery order. */
  groupVersions(): readonly CatalogGroupVersion[] {
    return this.#groupVersions;
  }

  /** Served groups in discovery order, the core group ("") included, with their preferred version. */
  groups(): readonly ApiGroupInfo[] {
    return this.#groups;
  }

  /** One served group, or undefined. */
  group(name: string): ApiGroupInfo | undefined {
    return this.#groups.find((g) => g.name === name);
  }

  /** Every served resource type, in discovery order. */
  *all(): IterableIterator<ResourceDefinition> {
    for (const gv of this.#groupVersions) yield* gv.resources;
  }

  /**
   * A new catalog with `more` appended after the current group-versions (custom resource groups
   * follow the built-in ones in discovery, as upstream orders them).
   * @throws Error when one of `more` is already served.
   */
  extend(more: readonly CatalogGroupVersion[]): Catalog {
    return new Catalog([...this.#groupVersions, ...more]);
  }
}

function groupInfos(groupVersions: readonly CatalogGroupVersion[]): ApiGroupInfo[] {
  const versions = new Map<string, string[]>();
  for (const gv of groupVersions) {
    const list = versions.get(gv.group) ?? [];
    list.push(gv.version);
    versions.set(gv.group, list);
  }
  return [...versions.entries()].map(([name, list]) => ({ name, versions: list, preferredVersion: list[0] }));
}
