/**
 * The loop every in-process controller runs: watch all objects of one store from a consistent
 * initial state and hand each event to a callback; when the watch ends (the cache re-listed, the
 * store hiccuped) start again from a fresh initial state, until closed.
 */
import type { CacheWatchEvent } from '../storage/cacher/cache-types.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { sleep } from '../util/sleep.js';

export type ObjectEventHandler = (event: Exclude<CacheWatchEvent<KubeObject>, { type: 'BOOKMARK' }>) => void;

/**
 * Notices for a controller that keeps its own copy of the watched objects: a restarted watch
 * replays every object as ADDED but says nothing of those deleted while no watch was open.
 */
export interface WatchPhases {
  /** A watch is about to start (the first or a restart): the events up to `synced` list every object afresh. */
  readonly starting?: () => void;
  /** Every object of the fresh initial state has been handed over; what follows is live. */
  readonly synced?: () => void;
}

export class ObjectWatcher {
  private readonly stop = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: ResourceStore,
    private readonly onEvent: ObjectEventHandler,
    private readonly log: (message: string) => void,
    /** Only the objects this selects are watched (the cache filters, so others cost nothing here). */
    private readonly filter?: (object: KubeObject) => boolean,
    private readonly phases: WatchPhases = {},
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Aborted when the watcher is closed; controllers pass it to their own waits. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const what = this.store.definition.resource;
    while (!this.stop.signal.aborted) {
      try {
        this.phases.starting?.();
        const watch = await this.store.watch({
          namespace: '', name: '', start: { kind: 'initial-state', at: { kind: 'consistent' } },
          bookmarks: false, initialEventsEndBookmark: this.phases.synced !== undefined, signal: this.stop.signal,
          ...(this.filter ? { filter: this.filter } : {}),
        });
        for await (const event of watch) {
          if (event.type !== 'BOOKMARK') this.onEvent(event);
          else if (event.initialEventsEnd) this.phases.synced?.();
        }
      } catch (err) {
        if (this.stop.signal.aborted) return;
        this.log(`watch of ${what} ended (${(err as Error).message}); starting again`);
        await sleep(1000, this.stop.signal);
      }
    }
  }
}
