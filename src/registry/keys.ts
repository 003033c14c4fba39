/**
 * The storage key layout: `{prefix}/{group/}{resource}/{namespace/}{name}` (DESIGN.md). The core
 * group has no group segment. A list of one namespace reads the prefix ending in `{namespace}/`;
 * a list across namespaces reads the prefix ending in `{resource}/`.
 */
export class KeyLayout {
  /** `storePrefix` is `--store-prefix` (default /registry), without a trailing slash. */
  constructor(private readonly storePrefix: string) {}

  /** The prefix of every key of a resource type, ending in '/'. */
  resourcePrefix(group: string, resource: string): string {
    return group === '' ? `${this.storePrefix}/${resource}/` : `${this.storePrefix}/${group}/${resource}/`;
  }

  /** The prefix a list reads: all namespaces (namespace "") or one namespace. */
  listPrefix(group: string, resource: string, namespace: string): string {
    const base = this.resourcePrefix(group, resource);
    return namespace === '' ? base : `${base}${namespace}/`;
  }

  /** The key of one object. */
  objectKey(group: string, resource: string, namespace: string, name: string): string {
    return `${this.listPrefix(group, resource, namespace)}${name}`;
  }
}
