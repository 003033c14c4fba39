import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CachedEvent } from '../../../src/storage/cacher/cached-event.js';
import { CHECKPOINT_EVERY, EventWindow } from '../../../src/storage/cacher/event-window.js';
import { DecodedEntry, type Slot } from '../../../src/storage/cacher/slot.js';
import { SortedMap } from '../../../src/storage/cacher/sorted-map.js';

type State = SortedMap<Slot<string>>;

function contents(state: State): string[] {
  const out: string[] = [];
  for (const c = state.cursor(); c.key !== undefined; c.advance()) {
    const slot = c.value as DecodedEntry<string>;
    out.push(`${c.key}=${slot.object}@${slot.modRevision}`);
  }
  return out;
}

/**
 * Feeds a window the way CacheState does (the event, then the whole state right after it) and
 * remembers what the state was at every revision, to compare with what the window rebuilds.
 */
function feed(window: EventWindow<string>, first: number, count: number, start: State, expected: Map<number, string[]>): State {
  let state = start;
  for (let revision = first; revision < first + count; revision++) {
    const key = `/k${revision % 7}`;
    const prev = state.get(key);
    let event: CachedEvent<string>;
    if (revision % 5 === 0 && prev !== undefined) {
      state = state.delete(key);
      event = new CachedEvent('delete', key, revision, prev, prev, 0);
    } else {
      const slot = new DecodedEntry(key, `v${revision}`, revision, revision);
      state = state.set(key, slot);
      event = new CachedEvent('put', key, revision, slot, prev, 0);
    }
    window.append(event, () => state);
    expected.set(revision, contents(state));
  }
  return state;
}

describe('EventWindow', () => {
  it('rebuilds the state at every revision it holds from its checkpoints, also after dropping old events', () => {
    const count = CHECKPOINT_EVERY * 4 + 13;
    const maxEvents = CHECKPOINT_EVERY * 2 + 5;
    const window = new EventWindow<string>({ retentionMs: Infinity, maxEvents }, () => 0, 100, SortedMap.empty());
    const expected = new Map<number, string[]>([[100, []]]);
    feed(window, 101, count, SortedMap.empty(), expected);

    const last = 100 + count;
    assert.equal(window.baseRevision, last - maxEvents);
    assert.equal(window.stateAt(window.baseRevision - 1), undefined, 'older than the window');
    // Backwards and forwards, so that the memo of the last rebuilt state is exercised both ways.
    const revisions = [...Array(maxEvents + 1).keys()].map((i) => window.baseRevision + i);
    for (const revision of [...revisions.reverse(), ...revisions.reverse()]) {
      assert.deepEqual(contents(window.stateAt(revision)!), expected.get(revision), `state at ${revision}`);
    }
  });

  it('drops old events without rebuilding any state, and still rebuilds every state it serves', (t) => {
    const maxEvents = 10;
    const window = new EventWindow<string>({ retentionMs: Infinity, maxEvents }, () => 0, 0, SortedMap.empty());
    const applied = t.mock.method(CachedEvent.prototype, 'applyTo');
    const expected = new Map<number, string[]>([[0, []]]);
    const count = CHECKPOINT_EVERY * 3 + 7;
    feed(window, 1, count, SortedMap.empty(), expected);
    assert.equal(applied.mock.callCount(), 0);
    assert.equal(window.length, maxEvents);
    assert.equal(window.baseRevision, count - maxEvents);
    assert.equal(window.stateAt(window.baseRevision - 1), undefined);
    assert.equal(window.eventsAfter(window.baseRevision - 1), undefined);
    assert.deepEqual(window.eventsAfter(window.baseRevision)!.map((e) => e.revision), [...Array(maxEvents).keys()].map((i) => count - maxEvents + 1 + i));
    for (let revision = window.baseRevision; revision <= count; revision++) {
      assert.deepEqual(contents(window.stateAt(revision)!), expected.get(revision), `state at ${revision}`);
    }
  });

  it('answers a revision between two events with the state after the earlier one', () => {
    const window = new EventWindow<string>({ retentionMs: Infinity, maxEvents: 1000 }, () => 0, 0, SortedMap.empty());
    const a = new DecodedEntry('/a', 'one', 10, 10);
    window.append(new CachedEvent('put', '/a', 10, a, undefined, 0), () => SortedMap.empty<Slot<string>>().set('/a', a));
    assert.deepEqual(contents(window.stateAt(15)!), ['/a=one@10']);
    assert.deepEqual(contents(window.stateAt(9)!), []);
  });
});
