/**
 * Empties namespaces that are being deleted, then removes their `kubernetes` finalizer so the
 * namespace itself goes away (upstream's namespace controller, in-process). Objects that their own
 * finalizers hold keep the namespace until they are gone; the controller checks again on an
 * interval. After each pass the namespace's deletion conditions say what is left and why.
 *
 * One deliberate difference: objects are deleted with a grace period of 0. Upstream leaves a
 * scheduled pod its grace period for the kubelet to end it; this server has no kubelet, so such a
 * pod, and its namespace, would never go.
 */
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import { metaOf, type KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { isNotFound } from '../api/errors.js';
import { ObjectWatcher } from './object-watcher.js';
import { sleep } from '../util/sleep.js';
import { withDeletionConditions, type CleaningOutcome, type NamespaceCondition } from './namespace-deletion-conditions.js';

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
    // Any finalizer left means the namespace is not done with, whether or not ours is still there.
    if (!meta.deletionTimestamp || finalizersOf(namespace).length === 0 || this.inFlight.has(meta.name!)) return;
    this.inFlight.add(meta.name!);
    void this.finalize(meta.name!).finally(() => this.inFlight.delete(meta.name!));
  }

  private async finalize(name: string): Promise<void> {
    while (!this.watcher.signal.aborted) {
      try {
        const outcome = await this.deleteContent(name);
        await this.recordConditions(name, outcome);
        if (outcome.errors.length === 0 && outcome.remaining.size === 0) {
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

  /**
   * Deletes everything in the namespace, type by type; a type that fails is logged and the others
   * are still cleaned. Returns what is left, counted after the deletes.
   */
  private async deleteContent(namespace: string): Promise<CleaningOutcome> {
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    const errors: string[] = [];
    for (const store of this.deps.namespacedStores()) {
      try {
        const left = await this.deleteAll(store, namespace);
        if (left.length === 0) continue;
        const { resource, group } = store.definition;
        remaining.set(`${resource}.${group}`, left.length);
        for (const item of left) for (const f of metaOf(item).finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      } catch (err) {
        const message = (err as Error).message;
        errors.push(message);
        this.deps.log(`namespace controller: cleaning namespace ${namespace}: ${message}`);
      }
    }
    return { remaining, finalizers, errors };
  }

  /** Deletes each object of one type in the namespace; returns those still there afterwards. */
  private async deleteAll(store: ResourceStore, namespace: string): Promise<readonly KubeObject[]> {
    const page = await store.list({ namespace, at: { kind: 'consistent' } });
    if (page.items.length === 0) return [];
    for (const item of page.items) {
      const meta = metaOf(item);
      if (meta.deletionTimestamp) continue;
      try {
        await store.delete(namespace, meta.name!, { dryRun: false, gracePeriodSeconds: 0 });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return (await store.list({ namespace, at: { kind: 'consistent' } })).items;
  }

  /** Writes the deletion conditions of `outcome` (a write only when one of them changes). */
  private async recordConditions(name: string, outcome: CleaningOutcome): Promise<void> {
    const namespaces = this.deps.namespaces;
    await namespaces.update(
      '',
      name,
      (current) => {
        const status = (current['status'] ??= {}) as { conditions?: NamespaceCondition[] };
        status.conditions = withDeletionConditions(status.conditions ?? [], outcome, namespaces.context.clock());
        return current;
      },
      { dryRun: false, subresource: 'status' },
    );
  }

  /** Removes `kubernetes`; the finalizers left are written as a sorted set, as upstream's are. */
  private async removeFinalizer(name: string): Promise<void> {
    await this.deps.namespaces.update(
      '',
      name,
      (current) => {
        const spec = (current['spec'] ??= {}) as { finalizers?: string[] };
        spec.finalizers = [...new Set(finalizersOf(current).filter((f) => f !== NAMESPACE_FINALIZER))].sort();
        return current;
      },
      { dryRun: false, subresource: 'finalize' },
    );
  }
}

function finalizersOf(namespace: KubeObject): string[] {
  return (namespace['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? [];
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

