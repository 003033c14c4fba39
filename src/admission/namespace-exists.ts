/**
 * Upstream's NamespaceExists admission plugin: content may only be created in a namespace that
 * exists (being terminated does not matter to it, unlike NamespaceLifecycle).
 */
import { notFound, type ResourceRef } from '../api/errors.js';
import type { KubeObject } from '../registry/object.js';
import type { NamespaceGate } from '../registry/store/store-context.js';
import type { NamespaceLookup } from './namespace-lookup.js';

export class NamespaceExists implements NamespaceGate {
  constructor(private readonly lookup: NamespaceLookup) {}

  /** Throws 404 `namespaces "<namespace>" not found` when the namespace does not exist. */
  checkCreate(namespace: string, _ref: ResourceRef): Promise<void> | void {
    const found = this.lookup(namespace);
    if (!(found instanceof Promise)) return;
    return found.then((ns) => requireNamespace(ns, namespace));
  }
}

function requireNamespace(ns: KubeObject | undefined, namespace: string): void {
  if (!ns) throw notFound({ resource: 'namespaces', group: '', name: namespace });
}
