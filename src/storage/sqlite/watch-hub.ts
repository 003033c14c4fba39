/**
 * In-process fan-out of committed changes to the live watches. The storage publishes each
 * committed batch once, synchronously, right after it advanced its current revision; so a watch
 * that joins the hub at revision R (in the same synchronous step that read R) receives exactly the
 * changes after R: nothing missed, nothing twice.
 */
import type { WatchEvent } from '../storage.js';

/** A live watch as the hub sees it. */
export interface HubSubscriber {
  /** Only changes to keys starting with this prefix are delivered. */
  readonly prefix: string;
  /**
   * Receives the subscriber's share of a committed batch (possibly no events) and the revision
   * the store is at after it. Must not throw; may unsubscribe itself.
   */
  deliver(events: readonly WatchEvent[], revision: number): void;
}

export class WatchHub {
  private readonly subscribers = new Set<HubSubscriber>();

  subscribe(subscriber: HubSubscriber): void {
    this.subscribers.add(subscriber);
  }

  unsubscribe(subscriber: HubSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** Hands every subscriber the events under its prefix; `revision` is the new current revision. */
  publish(events: readonly WatchEvent[], revision: number): void {
    // A server has a subscriber per resource type and a batch mostly writes one type, so most
    // subscribers are settled by comparing their prefix with what every key of the batch shares,
    // instead of testing each key against each prefix.
    let shared: string | undefined;
    for (const subscriber of this.subscribers) {
      const prefix = subscriber.prefix;
      if (prefix === '' || events.length === 0) {
        subscriber.deliver(events, revision);
        continue;
      }
      shared ??= sharedKeyPrefix(events);
      if (shared.startsWith(prefix)) subscriber.deliver(events, revision);
      else if (prefix.startsWith(shared)) subscriber.deliver(events.filter((e) => e.kv.key.startsWith(prefix)), revision);
      else subscriber.deliver(NO_EVENTS, revision);
    }
  }
}

const NO_EVENTS: readonly WatchEvent[] = Object.freeze([]);

/** The longest string every event's key starts with. */
export function sharedKeyPrefix(events: readonly WatchEvent[]): string {
  let shared = events[0]!.kv.key;
  for (let i = 1; i < events.length && shared !== ''; i++) {
    const key = events[i]!.kv.key;
    if (key.startsWith(shared)) continue;
    let length = 0;
    while (length < shared.length && length < key.length && key.charCodeAt(length) === shared.charCodeAt(length)) length++;
    shared = shared.slice(0, length);
  }
  return shared;
}
