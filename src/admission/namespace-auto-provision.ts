/**
 * Upstream's NamespaceAutoProvision admission plugin: a create in a namespace that does not exist
 * creates the namespace first. As upstream's, it creates it on a dry run too.
 */
import { ApiError, isAlreadyExists, type ResourceRef } from '../api/errors.js';
import type { NamespaceGate } from '../registry/store/store-context.js';
import { admissionForbidden } from './admission-forbidden.js';
import type { NamespaceLookup } from './namespace-lookup.js';

/** Creates an empty namespace of this name; throws the store's ApiError. */
export type CreateNamespace = (name: string) => Promise<unknown>;

export class NamespaceAutoProvision implements NamespaceGate {
  constructor(
    private readonly lookup: NamespaceLookup,
    private readonly createNamespace: CreateNamespace,
  ) {}

  /**
   * Creates the namespace when it does not exist (a racing creator's AlreadyExists is success).
   * Any other failure refuses the create: 403 `<resource> "<name>" is forbidden: <failure>`.
   */
  checkCreate(namespace: string, ref: ResourceRef): Promise<void> | void {
    const found = this.lookup(namespace);
    if (!(found instanceof Promise)) return;
    return found.then(async (ns) => {
      if (ns) return;
      try {
        await this.createNamespace(namespace);
      } catch (err) {
        if (isAlreadyExists(err)) return;
        throw admissionForbidden(ref, err instanceof ApiError ? err : err instanceof Error ? err.message : String(err));
      }
    });
  }
}
