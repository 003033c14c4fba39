/**
 * Keeps the rules of every aggregated ClusterRole (one with an `aggregationRule`) equal to what its
 * selectors gather (see cluster-role-aggregation.ts), as upstream's clusterrole-aggregation
 * controller in kube-controller-manager does. Without it the default admin, edit and view roles,
 * which hold no rules of their own, would grant nothing.
 *
 * Which role feeds which is not tracked: any ClusterRole change asks for a pass over every
 * aggregated role, as upstream re-queues all of them. Passes are coalesced: a pass starts
 * `settleMs` after the first change that asks for it and changes that come while one runs ask for
 * one more after it, so the 60-odd bootstrap roles created at startup cost a few passes, not one
 * each. Passes wait until the watch has handed over its whole initial state, so a role is never
 * rewritten from half a picture.
 */
import { ApiError } from '../api/errors.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { sleep } from '../util/sleep.js';
import { aggregatedRules, InvalidAggregationRuleError, isAggregated, rulesOf, sameRules } from './cluster-role-aggregation.js';
import { ObjectWatcher } from './object-watcher.js';

/** The field manager the rewritten rules are recorded under, upstream's. */
export const AGGREGATION_MANAGER = 'clusterrole-aggregation-controller';

export interface ClusterRoleAggregationDeps {
  readonly clusterRoles: ResourceStore;
  readonly log: (message: string) => void;
  /** How long a pass waits for more changes after the first that asks for it (default 20 ms). */
  readonly settleMs?: number;
  /** How long after a failed write the roles are looked at again (default 1 s). */
  readonly retryMs?: number;
}

/** The in-process clusterrole-aggregation controller; writes through `clusterRoles` as the server itself (no user). */
export class ClusterRoleAggregationController {
  /** Every ClusterRole by name, as the watch last told; complete only while `synced`. */
  private readonly roles = new Map<string, KubeObject>();
  private synced = false;
  /** A change came that no pass has yet looked at. */
  private requested = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private readonly watcher: ObjectWatcher;

  constructor(private readonly deps: ClusterRoleAggregationDeps) {
    this.watcher = new ObjectWatcher(deps.clusterRoles, (event) => {
      const role = event.entry.object;
      const name = role.metadata?.name ?? '';
      if (event.type === 'DELETED') this.roles.delete(name);
      else this.roles.set(name, role);
      this.request();
    }, (m) => this.log(m), undefined, {
      // A restarted watch lists every role again but not those deleted meanwhile: start afresh.
      starting: () => {
        this.synced = false;
        this.roles.clear();
      },
      synced: () => {
        this.synced = true;
        this.request();
      },
    });
  }

  /** Starts watching; the first pass runs once every ClusterRole has been seen. Starting twice does nothing more. */
  start(): void {
    this.watcher.start();
  }

  /** Stops watching and waits for a pass under way (its current write) to end. */
  async close(): Promise<void> {
    await this.watcher.close();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Asks for a pass: one starts `settleMs` from now unless one is waiting or running already. */
  private request(): void {
    this.requested = true;
    if (!this.synced || this.timer !== undefined || this.running !== undefined || this.watcher.signal.aborted) return;
    this.timer = setTimeout(() => this.startPass(), this.deps.settleMs ?? 20);
  }

  private startPass(): void {
    this.timer = undefined;
    // Still replaying after a restart: the `synced` notice asks again.
    if (!this.synced) return;
    this.requested = false;
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.requested) this.request();
    });
  }

  /** Brings every aggregated role up to date with the roles known when the pass began. */
  private async pass(): Promise<void> {
    const all = [...this.roles.values()];
    let failed = false;
    for (const role of all) {
      if (this.watcher.signal.aborted) return;
      if (isAggregated(role) && !(await this.reconcile(role, all))) failed = true;
    }
    if (failed) void this.retryLater();
  }

  /** Writes the role's aggregated rules if they differ from its own; false when that failed and is worth another try. */
  private async reconcile(role: KubeObject, all: readonly KubeObject[]): Promise<boolean> {
    const name = role.metadata?.name ?? '';
    try {
      if (sameRules(aggregatedRules(role, all), rulesOf(role))) return true;
      await this.deps.clusterRoles.update('', name, (current) => withAggregatedRules(current, all), {
        dryRun: false, subresource: '', manager: AGGREGATION_MANAGER,
      });
      return true;
    } catch (err) {
      // Gone: its DELETED event is on the way. A bad selector: only a change of the role mends it,
      // and that change asks for a pass by itself.
      if (err instanceof ApiError && err.code === 404) return true;
      this.log(`${name}: ${(err as Error).message}`);
      return err instanceof InvalidAggregationRuleError;
    }
  }

  private async retryLater(): Promise<void> {
    await sleep(this.deps.retryMs ?? 1000, this.watcher.signal);
    this.request();
  }

  private log(message: string): void {
    this.deps.log(`clusterrole aggregation: ${message}`);
  }
}

/**
 * The stored role with its aggregated rules, computed again from the stored role's own selectors
 * (they may have changed since the pass began); the stored role itself when nothing changes, so
 * that the store writes nothing. Rules are copied: `all` holds objects shared with the watch cache.
 */
function withAggregatedRules(current: KubeObject, all: readonly KubeObject[]): KubeObject {
  if (!isAggregated(current)) return current;
  const rules = aggregatedRules(current, all);
  if (sameRules(rules, rulesOf(current))) return current;
  const updated: KubeObject = { ...current, rules: structuredClone(rules) };
  // Upstream writes a nil list when nothing is selected; leaving the field out stores the same.
  if (rules.length === 0) delete updated['rules'];
  return updated;
}
