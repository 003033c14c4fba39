/**
 * The registry: one generic store per served resource type, each reading through the watch cache
 * of its storage prefix. Versions of one group share a prefix and so a cache.
 */
import { randomUuid } from '../util/random-uuid.js';
import type { Storage } from '../storage/storage.js';
import type { WatchCache } from '../storage/cacher/cache-types.js';
import type { ResourceDefinition } from './catalog/resource-definition.js';
import type { KeyLayout } from './keys.js';
import type { KubeObject } from './object.js';
import type { Strategy } from './strategy.js';
import { ResourceStore } from './store/resource-store.js';
import type { NamespaceGate, WriteAdmission, WriteGuard } from './store/store-context.js';
import type { FieldManager } from '../apply/field-manager.js';

export interface RegistryDeps {
  readonly storage: Storage;
  readonly keys: KeyLayout;
  /** Makes the watch cache of one storage prefix. */
  readonly newCache: (prefix: string) => WatchCache<KubeObject>;
  readonly strategyFor: (definition: ResourceDefinition) => Strategy;
  /** Records field ownership of a type's writes; absent: nothing is recorded. */
  readonly fieldManagerFor?: (definition: ResourceDefinition) => FieldManager;
  /** Further checks of a type's API writes (RBAC's escalation prevention); undefined: none. */
  readonly writeGuardFor?: (definition: ResourceDefinition) => WriteGuard | undefined;
  readonly clock?: () => number;
  readonly newUid?: () => string;
}

export class Registry {
  private readonly stores = new Map<string, ResourceStore>();
  private readonly caches = new Map<string, WatchCache<KubeObject>>();
  private namespaceGate: NamespaceGate | undefined;
  private writeAdmission: WriteAdmission | undefined;

  constructor(private readonly deps: RegistryDeps) {}

  /** Installs the check run before namespaced creates (wired once the namespaces store exists). */
  setNamespaceGate(gate: NamespaceGate): void {
    this.namespaceGate = gate;
  }

  /** Installs the check run before every API write (the admission plugins that judge any write). */
  setWriteAdmission(admission: WriteAdmission): void {
    this.writeAdmission = admission;
  }

  /** The store of a definition, created on first use (its cache starts with it). */
  storeFor(definition: ResourceDefinition): ResourceStore {
    const id = `${definition.group}/${definition.version}/${definition.resource}`;
    let store = this.stores.get(id);
    if (!store) {
      const registry = this;
      store = new ResourceStore({
        definition,
        strategy: this.deps.strategyFor(definition),
        storage: this.deps.storage,
        cache: this.cacheFor(definition),
        keys: this.deps.keys,
        clock: this.deps.clock ?? Date.now,
        newUid: this.deps.newUid ?? randomUuid,
        fields: this.deps.fieldManagerFor?.(definition),
        guard: this.deps.writeGuardFor?.(definition),
        get namespaces() {
          return registry.namespaceGate;
        },
        get admission() {
          return registry.writeAdmission;
        },
      });
      this.stores.set(id, store);
    }
    return store;
  }

  private cacheFor(definition: ResourceDefinition): WatchCache<KubeObject> {
    const prefix = this.deps.keys.resourcePrefix(definition.group, definition.resource);
    let cache = this.caches.get(prefix);
    if (!cache) {
      cache = this.deps.newCache(prefix);
      this.caches.set(prefix, cache);
    }
    return cache;
  }

  /** Creates the stores of every definition and waits until all their caches are filled. */
  async start(definitions: readonly ResourceDefinition[]): Promise<void> {
    for (const d of definitions) this.storeFor(d);
    await Promise.all([...this.caches.values()].map((c) => c.start()));
  }

  /** Passes a store compaction on to every cache. */
  forgetBefore(revision: number): void {
    for (const cache of this.caches.values()) cache.forgetBefore(revision);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.caches.values()].map((c) => c.stop()));
  }
}
