/**
 * Keeps the RBAC authorizer's index (src/auth/rbac/rbac-policy-index.ts) current: one watch per
 * RBAC type, each from a full initial state, each event applied as it comes. `synced()` turns true
 * once every watch has delivered its initial state (the readyz `informer-sync` check waits for it,
 * as upstream's readiness waits for its informers).
 *
 * When a watch has to start again (the cache re-listed, the store hiccuped), the index keeps
 * answering from what it holds while the new initial state arrives; objects that were deleted in
 * the gap are dropped when its end is marked. A request is never judged against an empty index.
 */
import type { RbacKind, RbacPolicyIndex } from '../auth/rbac/rbac-policy-index.js';
import { ObjectWatcher } from '../controllers/object-watcher.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';

export type RbacStores = Readonly<Record<RbacKind, ResourceStore>>;

type Held = Map<string, { readonly namespace: string; readonly name: string }>;

export class RbacPolicyFeed {
  private readonly syncedKinds = new Set<RbacKind>();
  private readonly watchers: ObjectWatcher[];

  constructor(
    private readonly index: RbacPolicyIndex,
    stores: RbacStores,
    log: (message: string) => void,
  ) {
    this.watchers = (Object.keys(stores) as RbacKind[]).map((kind) => this.watcherOf(kind, stores[kind], log));
  }

  start(): void {
    for (const watcher of this.watchers) watcher.start();
  }

  /** Whether every type's initial state is in the index. */
  synced(): boolean {
    return this.syncedKinds.size === this.watchers.length;
  }

  async close(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.close()));
  }

  private watcherOf(kind: RbacKind, store: ResourceStore, log: (message: string) => void): ObjectWatcher {
    // What the index held when the current watch began and its initial state has not named yet.
    let unseen: Held | undefined;
    return new ObjectWatcher(
      store,
      (event) => {
        const object = event.entry.object;
        unseen?.delete(keyOf(kind, object));
        if (event.type === 'DELETED') this.index.remove(kind, object);
        else this.index.put(kind, object);
      },
      log,
      undefined,
      {
        starting: () => (unseen = this.index.snapshot(kind)),
        synced: () => {
          for (const gone of unseen?.values() ?? []) this.index.removeNamed(kind, gone.namespace, gone.name);
          unseen = undefined;
          this.syncedKinds.add(kind);
        },
      },
    );
  }
}

/** The index's key of `object`: cluster-scoped kinds have no namespace, whatever the object says. */
function keyOf(kind: RbacKind, object: KubeObject): string {
  const metadata = object.metadata ?? {};
  const namespace = kind === 'ClusterRole' || kind === 'ClusterRoleBinding' ? '' : (metadata.namespace ?? '');
  return `${namespace}/${metadata.name ?? ''}`;
}
