/** The hub's fan-out: each subscriber gets exactly the events under its prefix, and every revision. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sharedKeyPrefix, WatchHub, type HubSubscriber } from '../../../src/storage/sqlite/watch-hub.js';
import type { WatchEvent } from '../../../src/storage/storage.js';

function event(key: string, revision: number): WatchEvent {
  return { type: 'put', kv: { key, value: new Uint8Array(0), createRevision: revision, modRevision: revision }, prevKv: undefined };
}

class Recorder implements HubSubscriber {
  readonly received: { keys: string[]; revision: number }[] = [];
  constructor(readonly prefix: string) {}
  deliver(events: readonly WatchEvent[], revision: number): void {
    this.received.push({ keys: events.map((e) => e.kv.key), revision });
  }
}

describe('WatchHub', () => {
  const batches = [
    ['/registry/configmaps/a/x1', '/registry/configmaps/a/x2', '/registry/configmaps/b/x3'],
    ['/registry/configmaps/a/x1'],
    ['/registry/secrets/a/s', '/registry/configmaps/a/c', '/registry/configmapsextra/a/c'],
    ['/registry/configmaps/a/x1', '/registry/configmaps/a/x1'],
    [],
  ];
  const prefixes = ['', '/registry/', '/registry/configmaps/', '/registry/configmaps/a/', '/registry/configmaps/a/x1', '/registry/configmaps/a/x10', '/registry/secrets/', '/registry/pods/', '/registry/configmaps/b/x3/and-more'];

  for (const keys of batches) {
    it(`delivers each prefix its keys of [${keys.join(', ')}], in order`, () => {
      const hub = new WatchHub();
      const recorders = prefixes.map((p) => new Recorder(p));
      for (const r of recorders) hub.subscribe(r);
      hub.publish(keys.map((k, i) => event(k, 10 + i)), 20);
      for (const r of recorders) {
        assert.deepEqual(r.received, [{ keys: keys.filter((k) => k.startsWith(r.prefix)), revision: 20 }], `prefix ${JSON.stringify(r.prefix)}`);
      }
    });
  }

  it('stops delivering to a subscriber that left', () => {
    const hub = new WatchHub();
    const r = new Recorder('/a/');
    hub.subscribe(r);
    hub.unsubscribe(r);
    hub.publish([event('/a/1', 1)], 1);
    assert.deepEqual(r.received, []);
  });

  it('finds the prefix every key shares', () => {
    const keys = (...k: string[]) => k.map((key, i) => event(key, i + 1));
    assert.equal(sharedKeyPrefix(keys('/a/b/c')), '/a/b/c');
    assert.equal(sharedKeyPrefix(keys('/a/b/c1', '/a/b/c2', '/a/b/d')), '/a/b/');
    assert.equal(sharedKeyPrefix(keys('/a/b', '/a/bc')), '/a/b');
    assert.equal(sharedKeyPrefix(keys('/a/bc', '/a/b')), '/a/b');
    assert.equal(sharedKeyPrefix(keys('/a', 'b')), '');
  });
});
