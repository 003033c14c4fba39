/**
 * Empties namespaces that are being deleted, then removes their `kubernetes` finalizer so the
 * namespace itself goes away (upstream's namespace controller, in-process). Objects that their own
 * finalizers hold keep the namespace until they are gone; the controller checks again on an interval.
 */
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import { metaOf, type KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { isNotFound } from '../api/errors.js';
import { ObjectWatcher } from './object-watcher.js';
import { sleep } from '../util/sleep.js';

export const NAMESPACE_FINALIZER = 'kubernetes';

export interface NamespaceControllerDeps {
  readonly namespaces: ResourceStore;
  /** One store per namespaced resource type (one version per group and resource). */
  readonly namespacedStores: () => readonly ResourceStore[];
  readonly log: (message: string) => void;
  /** How long to wait before looking again at a namespace that still has content. */
  readonly retryMs?: number;
}

export class NamespaceController {
  private readonly inFlight = new Set<string>();
  private readonly watcher: ObjectWatcher;

  constructor(private readonly deps: NamespaceControllerDeps) {
    this.watcher = new ObjectWatcher(deps.namespaces, (event) => {
      if (event.type !== 'DELETED') this.consider(event.entry.object);
    }, (m) => deps.log(`namespace controller: ${m}`));
  }

  start(): void {
    this.watcher.start();
  }

  async close(): Promise<void> {
    await this.watcher.close();
  }

  private consider(namespace: KubeObject): void {
    const meta = metaOf(namespace);
    const finalizers = (namespace['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    if (!meta.deletionTimestamp || !finalizers.includes(NAMESPACE_FINALIZER) || this.inFlight.has(meta.name!)) return;
    this.inFlight.add(meta.name!);
    void this.finalize(meta.name!).finally(() => this.inFlight.delete(meta.name!));
  }

  private async finalize(name: string): Promise<void> {
    while (!this.watcher.signal.aborted) {
      try {
        if (await this.deleteContent(name)) {
          await this.removeFinalizer(name);
          return;
        }
      } catch (err) {
        if (isNotFound(err)) return;
        this.deps.log(`namespace controller: cleaning namespace ${name}: ${(err as Error).message}`);
      }
      await sleep(this.deps.retryMs ?? 2000, this.watcher.signal);
    }
  }

  /** Deletes everything in the namespace; true when nothing is left. */
  private async deleteContent(namespace: string): Promise<boolean> {
    let empty = true;
    for (const store of this.deps.namespacedStores()) {
      const page = await store.list({ namespace, at: { kind: 'consistent' } });
      for (const item of page.items) {
        empty = false;
        const meta = metaOf(item);
        if (meta.deletionTimestamp) continue;
        try {
          await store.delete(namespace, meta.name!, { dryRun: false, gracePeriodSeconds: 0 });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    }
    return empty;
  }

  private async removeFinalizer(name: string): Promise<void> {
    await this.deps.namespaces.update(
      '',
      name,
      (current) => {
        const spec = (current['spec'] ??= {}) as { finalizers?: string[] };
        spec.finalizers = (spec.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER);
        return current;
      },
      { dryRun: false, subresource: 'finalize' },
    );
  }
}

/** Namespaced types, one per storage prefix (versions of one group share their objects). */
export function namespacedDefinitions(definitions: readonly ResourceDefinition[]): ResourceDefinition[] {
  const seen = new Set<string>();
  const out: ResourceDefinition[] = [];
  for (const d of definitions) {
    const id = `${d.group}/${d.resource}`;
    if (!d.namespaced || seen.has(id) || !d.verbs.includes('delete')) continue;
    seen.add(id);
    out.push(d);
  }
  return out;
}

