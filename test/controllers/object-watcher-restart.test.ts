/**
 * ObjectWatcher when its watch ends or cannot start. A real cache ends a watch only when it is
 * broken or stopped, so these tests give the watcher a scripted store: each watch() call plays the
 * next script.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectWatcher } from '../../src/controllers/object-watcher.js';
import type { KubeObject } from '../../src/registry/object.js';
import type { ResourceStore, WatchRequest } from '../../src/registry/store/resource-store.js';
import type { CacheWatchEvent } from '../../src/storage/cacher/cache-types.js';
import { eventually } from '../eventually.js';

type Event = CacheWatchEvent<KubeObject>;
/** One watch: the events it yields, then whether it ends by itself or stays open until aborted. */
type Script = { events: Event[]; then: 'end' | 'stay-open' } | Error;

function added(name: string): Event {
  const object = { metadata: { namespace: 'ns1', name } };
  return { type: 'ADDED', entry: { key: `/registry/configmaps/ns1/${name}`, object, modRevision: 1, createRevision: 1 }, revision: 1 };
}

/** The part of a ResourceStore that ObjectWatcher uses, playing `scripts` in turn. */
class ScriptedStore {
  readonly definition = { resource: 'configmaps' };
  readonly requests: WatchRequest[] = [];

  constructor(private readonly scripts: Script[]) {}

  async watch(request: WatchRequest): Promise<AsyncIterable<Event>> {
    this.requests.push(request);
    const script = this.scripts.shift() ?? { events: [], then: 'stay-open' };
    if (script instanceof Error) throw script;
    return (async function* () {
      yield* script.events;
      if (script.then === 'stay-open') await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
    })();
  }

  asStore(): ResourceStore {
    return this as unknown as ResourceStore;
  }
}

test('a watch that ends is started again at once, from a fresh initial state; bookmarks are not handed over', async () => {
  const store = new ScriptedStore([
    { events: [added('a')], then: 'end' },
    { events: [added('a'), added('b'), { type: 'BOOKMARK', revision: 2, initialEventsEnd: false }], then: 'stay-open' },
  ]);
  const seen: string[] = [];
  const watcher = new ObjectWatcher(store.asStore(), (event) => seen.push(`${event.type} ${event.entry.object.metadata?.name}`), () => undefined);
  watcher.start();
  try {
    await eventually('the second watch is read', () => seen.length === 3);
    assert.deepEqual(seen, ['ADDED a', 'ADDED a', 'ADDED b']);
    for (const request of store.requests) {
      assert.deepEqual(
        { namespace: request.namespace, name: request.name, start: request.start },
        { namespace: '', name: '', start: { kind: 'initial-state', at: { kind: 'consistent' } } },
      );
      assert.equal(request.signal, watcher.signal);
    }
  } finally {
    await watcher.close();
  }
  assert.equal(store.requests.length, 2);
});

test('a watch that cannot start is logged; closing cuts short the wait before the next try', async () => {
  const store = new ScriptedStore([new Error('store hiccup')]);
  const logs: string[] = [];
  const watcher = new ObjectWatcher(store.asStore(), () => undefined, (m) => logs.push(m));
  watcher.start();
  await eventually('the failure is logged', () => logs.length === 1);
  assert.equal(logs[0], 'watch of configmaps ended (store hiccup); starting again');
  // The next try waits 1 s; close() aborts that wait instead of sitting it out.
  const closing = Date.now();
  await watcher.close();
  assert.ok(Date.now() - closing < 500, `close() took ${Date.now() - closing} ms`);
  assert.equal(store.requests.length, 1);
});
