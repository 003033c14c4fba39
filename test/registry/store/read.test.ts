/** The generic store's get and list, served from the watch cache. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadRevision } from '../../../src/storage/cacher/cache-types.js';
import { configMap, rejectsWith, withStores, WRITE, type StoreFixture } from './store-fixture.js';

const CONSISTENT: ReadRevision = { kind: 'consistent' };

/** ConfigMaps ns1/a..e (label even=true on b and d) and ns2/a, created in that order. */
async function seed(f: StoreFixture): Promise<void> {
  const configMaps = f.store('', 'configmaps');
  for (const [i, name] of ['a', 'b', 'c', 'd', 'e'].entries()) {
    await configMaps.create('ns1', configMap(name, { k: 'v' }, { labels: { even: String(i % 2 === 1) } }), WRITE);
  }
  await configMaps.create('ns2', configMap('a'), WRITE);
}

function names(items: readonly { metadata?: { namespace?: string; name?: string } }[]): string[] {
  return items.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`);
}

test('get of an absent object is 404 NotFound in upstream words', () =>
  withStores(async (f) => {
    await rejectsWith(f.store('', 'configmaps').get('ns1', 'x', CONSISTENT), 404, 'NotFound', 'configmaps "x" not found');
    await rejectsWith(f.store('apps', 'deployments').get('ns1', 'x', CONSISTENT), 404, 'NotFound', 'deployments.apps "x" not found');
  }));

test('a consistent get sees the latest write; an exact one the object as it was then', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    const created = await configMaps.create('ns1', configMap('a', { k: 'first' }), WRITE);
    const { object: updated } = await configMaps.update('ns1', 'a', (current) => ({ ...current, data: { k: 'second' } }), WRITE);
    assert.deepEqual(await configMaps.get('ns1', 'a', CONSISTENT), updated);
    const then = await configMaps.get('ns1', 'a', { kind: 'exact', revision: Number(created.metadata?.resourceVersion) });
    assert.deepEqual(then, created);
    await rejectsWith(configMaps.get('ns2', 'a', CONSISTENT), 404, 'NotFound', 'configmaps "a" not found');
  }));

test('a list reads one namespace, or all of them for namespace ""', () =>
  withStores(async (f) => {
    await seed(f);
    const configMaps = f.store('', 'configmaps');
    const one = await configMaps.list({ namespace: 'ns1', at: CONSISTENT });
    assert.deepEqual(names(one.items), ['ns1/a', 'ns1/b', 'ns1/c', 'ns1/d', 'ns1/e']);
    assert.equal(one.next, undefined);
    assert.equal(one.revision, await f.storage.currentRevision());
    const all = await configMaps.list({ namespace: '', at: CONSISTENT });
    assert.deepEqual(names(all.items), ['ns1/a', 'ns1/b', 'ns1/c', 'ns1/d', 'ns1/e', 'ns2/a']);
  }));

test('a limited list is cut into pages that continue where the last one stopped', () =>
  withStores(async (f) => {
    await seed(f);
    const configMaps = f.store('', 'configmaps');
    const first = await configMaps.list({ namespace: 'ns1', at: CONSISTENT, limit: 2 });
    assert.deepEqual({ items: names(first.items), next: first.next, remaining: first.remaining }, { items: ['ns1/a', 'ns1/b'], next: 'c', remaining: 3 });
    const at: ReadRevision = { kind: 'exact', revision: first.revision };
    const second = await configMaps.list({ namespace: 'ns1', at, limit: 2, start: first.next! });
    assert.deepEqual({ items: names(second.items), next: second.next, remaining: second.remaining }, { items: ['ns1/c', 'ns1/d'], next: 'e', remaining: 1 });
    const last = await configMaps.list({ namespace: 'ns1', at, limit: 2, start: second.next! });
    assert.deepEqual({ items: names(last.items), next: last.next }, { items: ['ns1/e'], next: undefined });
  }));

test('a filter keeps only matching objects, and the limit counts what it kept', () =>
  withStores(async (f) => {
    await seed(f);
    const filter = (o: { metadata?: { labels?: Record<string, string> } }) => o.metadata?.labels?.['even'] === 'true';
    const configMaps = f.store('', 'configmaps');
    const all = await configMaps.list({ namespace: 'ns1', at: CONSISTENT, filter });
    assert.deepEqual(names(all.items), ['ns1/b', 'ns1/d']);
    const page = await configMaps.list({ namespace: 'ns1', at: CONSISTENT, filter, limit: 1 });
    assert.deepEqual(names(page.items), ['ns1/b']);
    assert.ok(page.next !== undefined, 'a page cut by the limit must say where to continue');
    assert.equal(page.remaining, undefined, 'a filtered list cannot count what is left');
    const rest = await configMaps.list({ namespace: 'ns1', at: { kind: 'exact', revision: page.revision }, filter, start: page.next });
    assert.deepEqual(names(rest.items), ['ns1/d']);
  }));
