/**
 * What a resource request resolved to: the type, its store, and the object named by the path.
 */
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { ResourceStore } from '../registry/store/resource-store.js';

export interface RequestScope {
  readonly definition: ResourceDefinition;
  readonly store: ResourceStore;
  /** "" for cluster-scoped types and lists across namespaces. */
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
}
