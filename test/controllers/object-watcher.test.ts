/** ObjectWatcher over a real store: the initial state, then every change, until closed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectWatcher } from '../../src/controllers/object-watcher.js';
import type { ResourceStore } from '../../src/registry/store/resource-store.js';
import { configMap, withStores, WRITE } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';

/**
 * Runs a started ObjectWatcher over `store` for the body, which gets each event handed over so far
 * as "TYPE namespace/name"; closes the watcher afterwards (closing twice is harmless).
 */
async function watching(store: ResourceStore, body: (seen: string[], watcher: ObjectWatcher) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const watcher = new ObjectWatcher(store, (event) => seen.push(`${event.type} ${event.entry.object.metadata?.namespace}/${event.entry.object.metadata?.name}`), () => undefined);
  watcher.start();
  try {
    await body(seen, watcher);
  } finally {
    await watcher.close();
  }
}

test('the objects already there come as ADDED, then every change in every namespace, in order', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a'), WRITE);
    await watching(configMaps, async (seen) => {
      await eventually('the initial state is handed over', () => seen.length === 1);
      await configMaps.update('ns1', 'a', (current) => ({ ...current, data: { k: 'changed' } }), WRITE);
      await configMaps.create('ns2', configMap('b'), WRITE);
      await configMaps.delete('ns1', 'a', { dryRun: false });
      await eventually('three changes are handed over', () => seen.length === 4);
      assert.deepEqual(seen, ['ADDED ns1/a', 'MODIFIED ns1/a', 'ADDED ns2/b', 'DELETED ns1/a']);
    });
  }));

test('starting twice runs one watch: each change is handed over once', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await watching(configMaps, async (seen, watcher) => {
      watcher.start();
      await configMaps.create('ns1', configMap('a'), WRITE);
      await configMaps.create('ns1', configMap('b'), WRITE);
      await eventually('the later change is handed over', () => seen.includes('ADDED ns1/b'));
      assert.deepEqual(seen, ['ADDED ns1/a', 'ADDED ns1/b']);
    });
  }));

test('once closed, its signal is aborted and no change is handed over any more', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await watching(configMaps, async (seen, watcher) => {
      await configMaps.create('ns1', configMap('a'), WRITE);
      await eventually('the first change is handed over', () => seen.length === 1);
      await watcher.close();
      assert.equal(watcher.signal.aborted, true);
      // A second watcher, still open, shows when the cache has handed the next change out.
      await watching(configMaps, async (witnessed) => {
        await configMaps.create('ns1', configMap('b'), WRITE);
        await eventually('the open watcher sees the change', () => witnessed.includes('ADDED ns1/b'));
      });
      assert.deepEqual(seen, ['ADDED ns1/a']);
    });
  }));
