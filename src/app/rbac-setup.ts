/**
 * Everything RBAC needs beside its authorizer, owned in one place: the in-memory policy the
 * authorizer reads and the watches that feed it (with `--authorization-mode RBAC` only), the
 * escalation guards of the four RBAC types, the ClusterRole aggregation controller, and the
 * default roles and bindings of every start. The app hands it the registry's RBAC stores.
 */
import type { Authorizer } from '../auth/authorizer.js';
import { RbacAuthorizer } from '../auth/rbac/rbac-authorizer.js';
import { RbacPolicyIndex, type RbacKind } from '../auth/rbac/rbac-policy-index.js';
import { ClusterRoleAggregationController } from '../controllers/cluster-role-aggregation-controller.js';
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { RBAC_GROUP } from '../registry/strategies/rbac-rules.js';
import type { Logger } from '../server/logger.js';
import { ensureBootstrapPolicy } from './rbac-bootstrap.js';
import { RbacPolicyFeed } from './rbac-policy-feed.js';
import { RbacWriteGuard } from './rbac-write-guard.js';

/** The RBAC types by resource. */
const KINDS: Readonly<Record<string, RbacKind>> = {
  roles: 'Role', clusterroles: 'ClusterRole', rolebindings: 'RoleBinding', clusterrolebindings: 'ClusterRoleBinding',
};

/** A store of the RBAC group by resource; looked up when needed, as stores are made lazily. */
export type RbacStoreOf = (resource: string) => ResourceStore;

export class RbacSetup {
  /** What the RBAC authorizer decides by. */
  readonly policy = new RbacPolicyIndex();
  private feed: RbacPolicyFeed | undefined;
  private aggregation: ClusterRoleAggregationController | undefined;

  /**
   * `enforced`: whether RBAC is among the authorization modes (only then are the watches run).
   * `logger`: the server's, asked for when there is something to log (it is made after this).
   */
  constructor(
    private readonly enforced: boolean,
    private readonly logger: () => Logger,
  ) {}

  /** Whether the policy is complete enough to authorize by (the readyz `informer-sync` check). */
  synced(): boolean {
    return this.feed?.synced() ?? !this.enforced;
  }

  /** The escalation guard of an RBAC type's API writes; undefined for other types. */
  writeGuardFor(definition: ResourceDefinition, authorizer: Authorizer, storeOf: RbacStoreOf): RbacWriteGuard | undefined {
    const kind = definition.group === RBAC_GROUP ? KINDS[definition.resource] : undefined;
    if (kind === undefined) return undefined;
    return new RbacWriteGuard(kind, {
      authorizer,
      rules: new RbacAuthorizer(this.policy),
      roles: () => storeOf('roles'),
      clusterRoles: () => storeOf('clusterroles'),
    });
  }

  /** Starts the aggregation controller, and the policy's watches when RBAC is enforced. Once the caches run. */
  start(storeOf: RbacStoreOf): void {
    const log = (m: string) => this.logger().warn(m);
    // Upstream's controller manager runs it; without it admin, edit and view would grant nothing.
    this.aggregation = new ClusterRoleAggregationController({ clusterRoles: storeOf('clusterroles'), log });
    this.aggregation.start();
    if (!this.enforced) return;
    const stores = { Role: storeOf('roles'), ClusterRole: storeOf('clusterroles'), RoleBinding: storeOf('rolebindings'), ClusterRoleBinding: storeOf('clusterrolebindings') };
    this.feed = new RbacPolicyFeed(this.policy, stores, log);
    this.feed.start();
  }

  /** Puts the default roles and bindings in place (upstream's rbac/bootstrap-roles hook); throws when some could not be written. */
  async ensureDefaults(storeOf: RbacStoreOf): Promise<void> {
    const counts = await ensureBootstrapPolicy(
      { clusterRoles: storeOf('clusterroles'), clusterRoleBindings: storeOf('clusterrolebindings'), roles: storeOf('roles'), roleBindings: storeOf('rolebindings') },
      this.logger(),
    );
    if (counts.failed > 0) throw new Error(`${counts.failed} of the default RBAC objects could not be written (see the log)`);
  }

  async close(): Promise<void> {
    await this.feed?.close();
    await this.aggregation?.close();
  }
}
