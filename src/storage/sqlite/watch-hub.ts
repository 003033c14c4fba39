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
    for (const subscriber of this.subscribers) {
      const prefix = subscriber.prefix;
      const matching = prefix === '' ? events : events.filter((e) => e.kv.key.startsWith(prefix));
      subscriber.deliver(matching, revision);
    }
  }
}
