/**
 * ensureBootstrapPolicy against the real registry on a real SQLite file: what a first start
 * creates, that a restart writes nothing, how drifted objects are put back, and two replicas
 * starting together.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ensureBootstrapPolicy, type BootstrapCounts, type BootstrapLog, type RbacStores } from '../../src/app/rbac-bootstrap.js';
import { loadBootstrapPolicy } from '../../src/app/rbac-bootstrap-policy.js';
import { covers } from '../../src/auth/rbac/covers.js';
import type { PolicyRule, Subject } from '../../src/auth/rbac/rbac-types.js';
import { loadBuiltinCatalog } from '../../src/registry/catalog/builtin-catalog.js';
import { KeyLayout } from '../../src/registry/keys.js';
import { decodeFromStorage } from '../../src/registry/object-codec.js';
import type { KubeObject } from '../../src/registry/object.js';
import { Registry } from '../../src/registry/registry.js';
import { loadBuiltinSchemas } from '../../src/registry/schema/schema-set.js';
import { schemaFieldsFrom } from '../../src/registry/strategies/schema-fields.js';
import { BUILTIN_NAME_VALIDATORS, DEFAULT_POD_OPTIONS } from '../../src/registry/strategies/strategy-deps.js';
import { strategyFor } from '../../src/registry/strategies/strategy-table.js';
import type { ResourceStore } from '../../src/registry/store/resource-store.js';
import { Cacher } from '../../src/storage/cacher/cacher.js';
import type { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { withTempStore } from '../storage/sqlite/temp-store.js';

const catalog = loadBuiltinCatalog();
const deps = { validateName: BUILTIN_NAME_VALIDATORS, schemaFields: schemaFieldsFrom(loadBuiltinSchemas()), allocators: {}, pods: DEFAULT_POD_OPTIONS };
const RESOURCES = ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'] as const;
const DEFINITIONS = RESOURCES.map((r) => catalog.resource('rbac.authorization.k8s.io', 'v1', r)!);
const WRITE = { dryRun: false, subresource: '' };
const CONSISTENT = { kind: 'consistent' } as const;

const policy = loadBootstrapPolicy();
const TOTAL =
  policy.clusterRoles.length +
  policy.clusterRoleBindings.length +
  Object.values(policy.namespaceRoles).flat().length +
  Object.values(policy.namespaceRoleBindings).flat().length;

/** A replica: its own registry (and so its own watch caches) over the shared storage. */
async function startReplica(storage: SqliteStorage): Promise<{ stores: RbacStores; registry: Registry }> {
  const registry = new Registry({
    storage,
    keys: new KeyLayout('/registry'),
    newCache: (prefix) => new Cacher<KubeObject>({ storage, prefix, decoder: decodeFromStorage }),
    strategyFor: (d) => strategyFor(d, deps),
  });
  await registry.start(DEFINITIONS);
  const [clusterRoles, clusterRoleBindings, roles, roleBindings] = DEFINITIONS.map((d) => registry.storeFor(d)) as [ResourceStore, ResourceStore, ResourceStore, ResourceStore];
  return { stores: { clusterRoles, clusterRoleBindings, roles, roleBindings }, registry };
}

interface Fixture {
  readonly storage: SqliteStorage;
  readonly stores: RbacStores;
  readonly log: RecordingLog;
}

class RecordingLog implements BootstrapLog {
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  info(message: string): void {
    this.infos.push(message);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
  error(message: string): void {
    this.errors.push(message);
  }
}

function withReplica(body: (f: Fixture) => Promise<void>): Promise<void> {
  return withTempStore({ writer: 'inline' }, async (storage) => {
    const { stores, registry } = await startReplica(storage);
    try {
      await body({ storage, stores, log: new RecordingLog() });
    } finally {
      await registry.stop();
    }
  });
}

const counts = (over: Partial<BootstrapCounts>): BootstrapCounts => ({ created: 0, updated: 0, recreated: 0, unchanged: 0, protected: 0, failed: 0, ...over });

function expectedRole(name: string): { rules?: readonly PolicyRule[] | null } {
  return policy.clusterRoles.find((r) => r.metadata?.name === name)!;
}

/** A first start, then `change` applied to the stored objects, then a second start. */
async function driftAndRerun(f: Fixture, change: () => Promise<unknown>): Promise<BootstrapCounts> {
  await ensureBootstrapPolicy(f.stores, f.log);
  await change();
  return ensureBootstrapPolicy(f.stores, f.log);
}

describe('ensureBootstrapPolicy', () => {
  it('creates every object of the policy on a first start', () =>
    withReplica(async (f) => {
      const before = await f.storage.currentRevision();
      assert.deepEqual(await ensureBootstrapPolicy(f.stores, f.log), counts({ created: TOTAL }));
      assert.equal((await f.storage.currentRevision()) - before, TOTAL, 'one write per object');
      assert.deepEqual(f.log.errors, []);
      const admin = await f.stores.clusterRoleBindings.get('', 'cluster-admin', CONSISTENT);
      assert.deepEqual(admin['subjects'], [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
      assert.deepEqual(admin.metadata?.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
      assert.deepEqual(admin.metadata?.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
      const reader = await f.stores.roleBindings.get('kube-system', 'system::extension-apiserver-authentication-reader', CONSISTENT);
      assert.equal((reader['roleRef'] as { name: string }).name, 'extension-apiserver-authentication-reader');
      assert.ok(await f.stores.roles.get('kube-public', 'system:controller:bootstrap-signer', CONSISTENT));
      assert.ok(f.log.infos.some((m) => m === 'created clusterrole.rbac.authorization.k8s.io/cluster-admin'));
    }));

  it('writes nothing when everything is in place', () =>
    withReplica(async (f) => {
      await ensureBootstrapPolicy(f.stores, f.log);
      const before = await f.storage.currentRevision();
      assert.deepEqual(await ensureBootstrapPolicy(f.stores, f.log), counts({ unchanged: TOTAL }));
      assert.equal(await f.storage.currentRevision(), before);
    }));

  it('gives a role back the rules it lost, keeping the ones added to it', () =>
    withReplica(async (f) => {
      const extra: PolicyRule = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] };
      const result = await driftAndRerun(f, async () => {
        await f.stores.clusterRoles.update('', 'system:basic-user', (role) => ({ ...role, rules: [extra] }), WRITE);
        await f.stores.roles.update('kube-system', 'system:controller:token-cleaner', (role) => ({ ...role, rules: [] }), WRITE);
      });
      assert.deepEqual(result, counts({ updated: 2, unchanged: TOTAL - 2 }));
      const role = await f.stores.clusterRoles.get('', 'system:basic-user', CONSISTENT);
      const rules = role['rules'] as PolicyRule[];
      assert.deepEqual(rules[0], extra);
      assert.equal(covers(rules, expectedRole('system:basic-user').rules ?? []).covered, true);
      const cleaner = await f.stores.roles.get('kube-system', 'system:controller:token-cleaner', CONSISTENT);
      assert.equal(covers(cleaner['rules'] as PolicyRule[], policy.namespaceRoles['kube-system']!.find((r) => r.metadata?.name === 'system:controller:token-cleaner')!.rules!).covered, true);
      assert.ok(f.log.infos.some((m) => m.startsWith('updated clusterrole.rbac.authorization.k8s.io/system:basic-user with the missing permissions: [')));
    }));

  it('leaves a role annotated autoupdate "false" alone, with a warning', () =>
    withReplica(async (f) => {
      let changed: KubeObject | undefined;
      const result = await driftAndRerun(f, async () => {
        const protect = (role: KubeObject): KubeObject => {
          role.metadata!.annotations = { 'rbac.authorization.kubernetes.io/autoupdate': 'false' };
          return { ...role, rules: [] };
        };
        changed = (await f.stores.clusterRoles.update('', 'system:discovery', protect, WRITE)).object;
      });
      assert.deepEqual(result, counts({ protected: 1, unchanged: TOTAL - 1 }));
      const role = await f.stores.clusterRoles.get('', 'system:discovery', CONSISTENT);
      assert.equal(role.metadata?.resourceVersion, changed?.metadata?.resourceVersion);
      assert.deepEqual(role['rules'], []);
      assert.equal(f.log.warnings.length, 1);
      assert.match(f.log.warnings[0]!, /^left clusterrole\.rbac\.authorization\.k8s\.io\/system:discovery alone \(autoupdate is "false"\) although it lacks permissions: \[/);
    }));

  it('gives a binding back the subject it lost', () =>
    withReplica(async (f) => {
      const result = await driftAndRerun(f, () =>
        f.stores.clusterRoleBindings.update('', 'system:public-info-viewer', (b) => ({ ...b, subjects: (b['subjects'] as Subject[]).slice(0, 1) }), WRITE),
      );
      assert.deepEqual(result, counts({ updated: 1, unchanged: TOTAL - 1 }));
      const binding = await f.stores.clusterRoleBindings.get('', 'system:public-info-viewer', CONSISTENT);
      assert.deepEqual(
        (binding['subjects'] as Subject[]).map((s) => s.name),
        ['system:authenticated', 'system:unauthenticated'],
      );
    }));

  it('replaces a binding whose roleRef differs', () =>
    withReplica(async (f) => {
      let oldUid: string | undefined;
      const result = await driftAndRerun(f, async () => {
        await f.stores.clusterRoleBindings.delete('', 'system:basic-user', { dryRun: false });
        const other = { metadata: { name: 'system:basic-user' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [] };
        oldUid = (await f.stores.clusterRoleBindings.create('', other, WRITE)).metadata?.uid;
      });
      assert.deepEqual(result, counts({ recreated: 1, unchanged: TOTAL - 1 }));
      const binding = await f.stores.clusterRoleBindings.get('', 'system:basic-user', CONSISTENT);
      assert.equal((binding['roleRef'] as { name: string }).name, 'system:basic-user');
      assert.notEqual(binding.metadata?.uid, oldUid);
    }));

  it('lets two replicas starting together create each object once', () =>
    withTempStore({ writer: 'inline' }, async (storage) => {
      const a = await startReplica(storage);
      const b = await startReplica(storage);
      try {
        const log = new RecordingLog();
        const before = await storage.currentRevision();
        const [ra, rb] = await Promise.all([ensureBootstrapPolicy(a.stores, log), ensureBootstrapPolicy(b.stores, log)]);
        assert.deepEqual(log.errors, []);
        assert.equal(ra.failed + rb.failed, 0);
        assert.equal(ra.created + rb.created, TOTAL);
        assert.equal(ra.created + ra.unchanged, TOTAL);
        assert.equal(rb.created + rb.unchanged, TOTAL);
        assert.equal((await storage.currentRevision()) - before, TOTAL, 'no object written twice');
      } finally {
        await Promise.all([a.registry.stop(), b.registry.stop()]);
      }
    }));
});
