/**
 * Upstream's "rbac/bootstrap-roles" post-start hook: on every start, whatever the authorization
 * mode, the default roles and bindings (src/app/rbac-bootstrap-policy.ts) are put in place. A
 * missing object is created; an existing one is reconciled additively (src/app/rbac-reconcile.ts)
 * unless it is annotated autoupdate "false"; a binding whose roleRef differs is deleted and
 * created again.
 *
 * Differences from upstream, and why:
 * - All objects are handled at once rather than one after another, so that a first start commits
 *   its ~130 creates in a few storage batches instead of ~130 sequential round trips.
 * - Objects are read through the watch cache (consistent reads), so a restart with everything in
 *   place reads no object from storage and writes nothing.
 * - Upstream's migrations of clusters older than 1.9 (copying admin/edit/view into the
 *   system:aggregate-to-* roles, splitting old bindings) are left out: they only apply to objects a
 *   Capstan data directory never held.
 * - Upstream retries the whole hook for 30 s until storage answers; here the caller starts it once
 *   the registry has started, which already waited for storage.
 *
 * Several replicas may run this at once: a create that loses is followed by a reconcile of the
 * winner's object, an update retries on conflict, a delete is pinned to the uid it saw.
 */
import { ApiError, isAlreadyExists, isNotFound } from '../api/errors.js';
import { loadBootstrapPolicy, type BootstrapPolicy } from './rbac-bootstrap-policy.js';
import { reconcileBinding, reconcileRole, type BindingObject, type RoleObject } from './rbac-reconcile.js';
import { metaOf, type KubeObject } from '../registry/object.js';
import { RBAC_GROUP } from '../registry/strategies/rbac-rules.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import type { WriteOptions } from '../registry/store/store-context.js';
import type { Logger } from '../server/logger.js';

/** The stores of the four RBAC types. The policy's namespaces (kube-system, kube-public) must exist. */
export interface RbacStores {
  readonly clusterRoles: ResourceStore;
  readonly clusterRoleBindings: ResourceStore;
  readonly roles: ResourceStore;
  readonly roleBindings: ResourceStore;
}

/** Where the outcome is told: created and updated objects at verbosity 2, skipped ones as warnings, failures as errors. */
export type BootstrapLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/** What happened to one object of the policy. */
export type BootstrapOutcome = 'created' | 'updated' | 'recreated' | 'unchanged' | 'protected' | 'failed';

/** How many objects of the policy ended each way. */
export type BootstrapCounts = Record<BootstrapOutcome, number>;

/**
 * Creates or reconciles every object of `policy`. Never throws for one object: its failure is
 * logged and counted, and the others go on (as upstream, which makes as many as it can).
 */
export async function ensureBootstrapPolicy(stores: RbacStores, log: BootstrapLog, policy: BootstrapPolicy = loadBootstrapPolicy()): Promise<BootstrapCounts> {
  const work: [Target, KubeObject][] = [];
  const add = (target: Target, objects: readonly KubeObject[]) => objects.forEach((o) => work.push([target, o]));
  add(target(stores.clusterRoles, '', 'clusterrole', planRole), policy.clusterRoles);
  add(target(stores.clusterRoleBindings, '', 'clusterrolebinding', planBinding), policy.clusterRoleBindings);
  for (const [ns, roles] of Object.entries(policy.namespaceRoles)) add(target(stores.roles, ns, 'role', planRole), roles);
  for (const [ns, bindings] of Object.entries(policy.namespaceRoleBindings)) add(target(stores.roleBindings, ns, 'rolebinding', planBinding), bindings);
  const outcomes = await Promise.all(work.map(([t, object]) => ensureLogged(t, object, log)));
  const counts: BootstrapCounts = { created: 0, updated: 0, recreated: 0, unchanged: 0, protected: 0, failed: 0 };
  for (const outcome of outcomes) counts[outcome]++;
  return counts;
}

/** What reconciling one existing object asks for (both reconcilers' answers in one shape). */
interface Plan {
  readonly update: KubeObject | undefined;
  readonly recreate: boolean;
  readonly protected: boolean;
  /** The missing rules or subjects, for the log. */
  readonly missing: readonly unknown[];
}

/** Where one kind of object lives, and how it is reconciled. */
interface Target {
  readonly store: ResourceStore;
  /** "" for the cluster-scoped types. */
  readonly namespace: string;
  /** The resource's singular name, for messages. */
  readonly singular: string;
  /** Whether missing entries are rules (roles) or subjects (bindings), for messages. */
  readonly entries: string;
  readonly plan: (existing: KubeObject, expected: KubeObject) => Plan;
}

function target(store: ResourceStore, namespace: string, singular: string, plan: Target['plan']): Target {
  return { store, namespace, singular, entries: plan === planRole ? 'permissions' : 'subjects', plan };
}

function planRole(existing: KubeObject, expected: KubeObject): Plan {
  const r = reconcileRole(existing as RoleObject, expected as RoleObject);
  return { update: r.update, recreate: false, protected: r.protected, missing: r.missingRules };
}

function planBinding(existing: KubeObject, expected: KubeObject): Plan {
  const r = reconcileBinding(existing as BindingObject, expected as BindingObject);
  return { update: r.update, recreate: r.recreate, protected: r.protected, missing: r.missingSubjects };
}

/** An attempt's answer: what happened, or that the object changed under it and must be read again. */
type Attempt = { readonly outcome: Exclude<BootstrapOutcome, 'failed'>; readonly missing?: readonly unknown[] } | 'again';

/**
 * How many times one object is read and acted on before giving up. Each retry follows another
 * writer's change (a create or delete that won a race), so a few suffice; upstream allows 3 to 4.
 */
const MAX_ATTEMPTS = 5;
const WRITE: WriteOptions = { dryRun: false, subresource: '' };
const CONSISTENT = { kind: 'consistent' } as const;
const CACHED = { kind: 'any' } as const;

async function ensureLogged(t: Target, expected: KubeObject, log: BootstrapLog): Promise<BootstrapOutcome> {
  const what = `${t.singular}.${RBAC_GROUP}/${metaOf(expected).name}${t.namespace === '' ? '' : ` in ${t.namespace}`}`;
  try {
    const { outcome, missing } = await ensureOne(t, expected);
    const listed = JSON.stringify(missing ?? []);
    if (outcome === 'protected') log.warn(`left ${what} alone (autoupdate is "false") although it lacks ${t.entries}: ${listed}`);
    else if (outcome === 'updated') log.info(`updated ${what} with the missing ${t.entries}: ${listed}`, 2);
    else if (outcome !== 'unchanged') log.info(`${outcome} ${what}`, 2);
    return outcome;
  } catch (err) {
    log.error(`could not reconcile ${what}: ${(err as Error).message}`, err);
    return 'failed';
  }
}

async function ensureOne(t: Target, expected: KubeObject): Promise<Exclude<Attempt, 'again'>> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    // The first look is the cache's (filled at start, so a restart reads nothing from the store);
    // a retry follows another writer's change and reads through to the store.
    const existing = await readExisting(t, metaOf(expected).name!, attempt === 1 ? CACHED : CONSISTENT);
    const result = existing === undefined ? await create(t, expected) : await reconcile(t, existing, expected);
    if (result !== 'again') return result;
  }
  throw new Error(`gave up after ${MAX_ATTEMPTS} attempts: other writers kept changing it`);
}

/** The object as the cache has it (`at`), undefined when absent. Shared: not to be changed. */
async function readExisting(t: Target, name: string, at: typeof CACHED | typeof CONSISTENT): Promise<KubeObject | undefined> {
  try {
    return await t.store.get(t.namespace, name, at);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function create(t: Target, expected: KubeObject, outcome: 'created' | 'recreated' = 'created'): Promise<Attempt> {
  try {
    await t.store.create(t.namespace, structuredClone(expected), WRITE);
    return { outcome };
  } catch (err) {
    // Another replica created it first: reconcile what it wrote.
    if (isAlreadyExists(err)) return 'again';
    throw err;
  }
}

async function reconcile(t: Target, existing: KubeObject, expected: KubeObject): Promise<Attempt> {
  const plan = t.plan(existing, expected);
  if (plan.update === undefined) return { outcome: 'unchanged' };
  if (plan.protected) return { outcome: 'protected', missing: plan.missing };
  if (plan.recreate) return recreate(t, existing, expected);
  return update(t, expected);
}

/**
 * Applies the reconciliation to the stored object, computing it again on whatever the update
 * reads (the store retries on conflict, each time from the newer object). When that object needs
 * something else by then (protection, a new roleRef), nothing is written and the caller decides again.
 */
async function update(t: Target, expected: KubeObject): Promise<Attempt> {
  let fresh: Plan | undefined;
  try {
    await t.store.update(
      t.namespace,
      metaOf(expected).name!,
      (current) => {
        fresh = t.plan(current, expected);
        return fresh.update !== undefined && !fresh.protected && !fresh.recreate ? fresh.update : current;
      },
      WRITE,
    );
  } catch (err) {
    if (isNotFound(err)) return 'again';
    throw err;
  }
  if (fresh === undefined || fresh.protected || fresh.recreate) return 'again';
  return fresh.update === undefined ? { outcome: 'unchanged' } : { outcome: 'updated', missing: fresh.missing };
}

/** A binding's roleRef cannot change in place: delete the one seen (by uid, so a newer one survives), then create. */
async function recreate(t: Target, existing: KubeObject, expected: KubeObject): Promise<Attempt> {
  const { name, uid } = metaOf(existing);
  try {
    await t.store.delete(t.namespace, name!, { dryRun: false, ...(uid ? { preconditions: { uid } } : {}) });
  } catch (err) {
    if (isConflict(err)) return 'again';
    if (!isNotFound(err)) throw err;
  }
  return create(t, expected, 'recreated');
}

function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'Conflict';
}
