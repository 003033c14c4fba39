/**
 * ClusterRoleAggregationController on the real store: what an aggregated role holds as the roles
 * it selects come, change and go, and how often it is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterRoleAggregationController } from '../../src/controllers/cluster-role-aggregation-controller.js';
import type { KubeObject } from '../../src/registry/object.js';
import { ResourceStore, type WatchRequest } from '../../src/registry/store/resource-store.js';
import type { CacheWatch } from '../../src/storage/cacher/cache-types.js';
import { eventually } from '../eventually.js';
import { withStores, WRITE, type StoreFixture } from '../registry/store/store-fixture.js';

const AGGREGATE = 'example.com/aggregate-to-agg';

function clusterRoles(f: StoreFixture): ResourceStore {
  return f.store('rbac.authorization.k8s.io', 'clusterroles');
}

function rule(resource: string): Record<string, unknown> {
  return { apiGroups: [''], resources: [resource], verbs: ['get'] };
}

/** A ClusterRole labelled for aggregation into `agg`, granting `get` on `resources`. */
function createFeeder(f: StoreFixture, name: string, ...resources: string[]): Promise<KubeObject> {
  const role = { metadata: { name, labels: { [AGGREGATE]: 'true' } }, rules: resources.map(rule) };
  return clusterRoles(f).create('', role, WRITE);
}

/** The aggregated role `agg`, with the rules it is created with. */
function createAggregated(f: StoreFixture, rules: Record<string, unknown>[] = []): Promise<KubeObject> {
  const selectors = [{ matchLabels: { [AGGREGATE]: 'true' } }];
  return clusterRoles(f).create('', { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: selectors }, rules }, WRITE);
}

async function resourcesOf(f: StoreFixture, name: string): Promise<string[]> {
  const role = await clusterRoles(f).get('', name, { kind: 'consistent' });
  return ((role['rules'] ?? []) as { resources: string[] }[]).flatMap((r) => r.resources);
}

async function hasResources(f: StoreFixture, name: string, want: string[]): Promise<boolean> {
  return JSON.stringify(await resourcesOf(f, name)) === JSON.stringify(want);
}

/** Counts the writes to ClusterRole `name` from now on, until the signal aborts. */
async function countWrites(store: ResourceStore, name: string, signal: AbortSignal): Promise<() => number> {
  let writes = 0;
  const watch = await store.watch({
    namespace: '', name, start: { kind: 'initial-state', at: { kind: 'consistent' } },
    bookmarks: false, initialEventsEndBookmark: false, signal,
  });
  void (async () => {
    for await (const event of watch) if (event.type === 'MODIFIED') writes++;
  })().catch(() => undefined);
  return () => writes;
}

/**
 * Runs the controller over `store` for the body, then closes it; returns what it logged. A pass
 * waits `settleMs` for more changes (short here, so that tests do not wait long for each change).
 */
async function withController(store: ResourceStore, body: () => Promise<void>, settleMs = 5): Promise<string[]> {
  const logs: string[] = [];
  const controller = new ClusterRoleAggregationController({ clusterRoles: store, log: (m) => logs.push(m), settleMs });
  controller.start();
  try {
    await body();
  } finally {
    await controller.close();
  }
  return logs;
}

test('an aggregated role gathers the rules of a labelled role created later', () =>
  withStores(async (f) => {
    await createAggregated(f);
    await createFeeder(f, 'feeder-b', 'secrets');
    const logs = await withController(clusterRoles(f), async () => {
      await eventually('agg holds feeder-b\'s rules', () => hasResources(f, 'agg', ['secrets']));
      await createFeeder(f, 'feeder-a', 'pods', 'secrets');
      await clusterRoles(f).create('', { metadata: { name: 'unlabelled' }, rules: [rule('nodes')] }, WRITE);
      // By name: feeder-a's rules first; its copy of feeder-b's rule is kept only once.
      await eventually('agg holds feeder-a\'s rules too', () => hasResources(f, 'agg', ['pods', 'secrets']));
    });
    assert.deepEqual(logs, []);
  }));

test('an aggregated role loses the rules of a role deleted or no longer labelled', () =>
  withStores(async (f) => {
    await createAggregated(f);
    await createFeeder(f, 'feeder-a', 'pods');
    await createFeeder(f, 'feeder-b', 'secrets');
    await withController(clusterRoles(f), async () => {
      await eventually('agg holds both feeders\' rules', () => hasResources(f, 'agg', ['pods', 'secrets']));
      await clusterRoles(f).delete('', 'feeder-a', { dryRun: false });
      await eventually('feeder-a\'s rules are gone', () => hasResources(f, 'agg', ['secrets']));
      await clusterRoles(f).update('', 'feeder-b', (role) => ({ ...role, metadata: { ...role.metadata, labels: {} } }), WRITE);
      await eventually('feeder-b\'s rules are gone', () => hasResources(f, 'agg', []));
    });
  }));

test('a role aggregated into another passes on what it gathers, as edit feeds admin', () =>
  withStores(async (f) => {
    await createAggregated(f);
    const selectors = [{ matchLabels: { 'example.com/aggregate-to-outer': 'true' } }];
    await clusterRoles(f).create('', { metadata: { name: 'outer' }, aggregationRule: { clusterRoleSelectors: selectors } }, WRITE);
    await clusterRoles(f).update('', 'agg', (role) => ({ ...role, metadata: { ...role.metadata, labels: { 'example.com/aggregate-to-outer': 'true' } } }), WRITE);
    await withController(clusterRoles(f), async () => {
      await createFeeder(f, 'feeder', 'pods');
      await eventually('outer holds what agg gathered', () => hasResources(f, 'outer', ['pods']));
    });
  }));

test('a burst of 50 new roles is written to the aggregated role in a few writes, not one each', () =>
  withStores(async (f) => {
    await createAggregated(f);
    const stop = new AbortController();
    const writes = await countWrites(clusterRoles(f), 'agg', stop.signal);
    const names = Array.from({ length: 50 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    // One after the other, as the bootstrap policy is created: each change is seen on its own, and
    // only the wait before a pass gathers them (50 creations take some 50 ms here).
    await withController(clusterRoles(f), async () => {
      for (const name of names) await createFeeder(f, `feeder-${name}`, name);
      await eventually('agg holds all 50 feeders\' rules', () => hasResources(f, 'agg', names));
    }, 200);
    stop.abort();
    assert.ok(writes() <= 5, `agg was written ${writes()} times`);
  }));

test('a role whose rules are already right is not written', () =>
  withStores(async (f) => {
    await createFeeder(f, 'feeder', 'pods');
    const { metadata } = await createAggregated(f, [rule('pods')]);
    // A second aggregated role that does need a write: once it has one, the pass has looked at agg too.
    await clusterRoles(f).create('', { metadata: { name: 'zz-probe' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE]: 'true' } }] } }, WRITE);
    await withController(clusterRoles(f), async () => {
      await eventually('zz-probe is written', () => hasResources(f, 'zz-probe', ['pods']));
      await clusterRoles(f).create('', { metadata: { name: 'unrelated' }, rules: [rule('nodes')] }, WRITE);
      await clusterRoles(f).update('', 'zz-probe', (role) => ({ ...role, metadata: { ...role.metadata, labels: { touched: 'yes' } } }), WRITE);
      await eventually('zz-probe is looked at again', async () => (await clusterRoles(f).get('', 'zz-probe', { kind: 'consistent' })).metadata?.labels?.['touched'] === 'yes');
    });
    const agg = await clusterRoles(f).get('', 'agg', { kind: 'consistent' });
    assert.equal(agg.metadata?.resourceVersion, metadata?.resourceVersion);
  }));

/** The real store, whose watches the test can break and hold closed: a cache that re-lists. */
class BreakableStore extends ResourceStore {
  private current = new AbortController();
  private gate: Promise<void> = Promise.resolve();
  private reopen: () => void = () => undefined;

  constructor(of: ResourceStore) {
    super(of.context);
  }

  override async watch(request: WatchRequest): Promise<CacheWatch<KubeObject>> {
    await this.gate;
    this.current = new AbortController();
    return super.watch({ ...request, signal: AbortSignal.any([request.signal, this.current.signal]) });
  }

  /** Ends the open watch; the next one starts only on `open`. */
  break(): void {
    this.gate = new Promise((resolve) => (this.reopen = resolve));
    this.current.abort();
  }

  open(): void {
    this.reopen();
  }
}

test('a role deleted while no watch was open is forgotten once the watch starts again', () =>
  withStores(async (f) => {
    await createAggregated(f);
    await createFeeder(f, 'feeder-a', 'pods');
    await createFeeder(f, 'feeder-b', 'secrets');
    const store = new BreakableStore(clusterRoles(f));
    await withController(store, async () => {
      await eventually('agg holds both feeders\' rules', () => hasResources(f, 'agg', ['pods', 'secrets']));
      store.break();
      await clusterRoles(f).delete('', 'feeder-a', { dryRun: false });
      store.open();
      await eventually('feeder-a\'s rules are gone', () => hasResources(f, 'agg', ['secrets']), 4000);
    });
  }));
