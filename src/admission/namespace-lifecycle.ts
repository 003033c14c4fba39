/**
 * Upstream's NamespaceLifecycle admission, for creates: content may only be created in a namespace
 * that exists and is not being terminated.
 */
import { forbiddenOn, notFound, type ResourceRef } from '../api/errors.js';
import { metaOf, type KubeObject } from '../registry/object.js';
import type { NamespaceGate } from '../registry/store/store-context.js';
import type { CachedNamespace, NamespaceReader } from './namespace-lookup.js';

export type { CachedNamespace, NamespaceReader } from './namespace-lookup.js';

export class NamespaceLifecycle implements NamespaceGate {
  constructor(
    private readonly readNamespace: NamespaceReader,
    private readonly cachedNamespace: CachedNamespace = () => undefined,
  ) {}

  /** Checks at once when the cache holds the namespace (almost always), else after reading it. */
  checkCreate(namespace: string, ref: ResourceRef): Promise<void> | void {
    const cached = this.cachedNamespace(namespace);
    if (cached) return checkNamespace(cached, namespace, ref);
    return this.#read(namespace).then((ns) => checkNamespace(ns, namespace, ref));
  }

  async #read(namespace: string): Promise<KubeObject | undefined> {
    // The cache answers almost always; a namespace created a moment ago may need the consistent read.
    return (await this.readNamespace(namespace, false)) ?? (await this.readNamespace(namespace, true));
  }
}

/** Throws 404 for a missing namespace, 403 for one being terminated. */
function checkNamespace(ns: KubeObject | undefined, namespace: string, ref: ResourceRef): void {
  if (!ns) throw notFound({ resource: 'namespaces', group: '', name: namespace });
  const terminating = !!metaOf(ns).deletionTimestamp || (ns['status'] as { phase?: string } | undefined)?.phase === 'Terminating';
  if (terminating) {
    const why = `unable to create new content in namespace ${namespace} because it is being terminated`;
    throw forbiddenOn(ref, why, [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }]);
  }
}
