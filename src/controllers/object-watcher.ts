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

export class ObjectWatcher {
  private readonly stop = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: ResourceStore,
    private readonly onEvent: ObjectEventHandler,
    private readonly log: (message: string) => void,
    /** Only the objects this selects are watched (the cache filters, so others cost nothing here). */
    private readonly filter?: (object: KubeObject) => boolean,
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
        const watch = await this.store.watch({
          namespace: '', name: '', start: { kind: 'initial-state', at: { kind: 'consistent' } },
          bookmarks: false, initialEventsEndBookmark: false, signal: this.stop.signal,
          ...(this.filter ? { filter: this.filter } : {}),
        });
        for await (const event of watch) if (event.type !== 'BOOKMARK') this.onEvent(event);
      } catch (err) {
        if (this.stop.signal.aborted) return;
        this.log(`watch of ${what} ended (${(err as Error).message}); starting again`);
        await sleep(1000, this.stop.signal);
      }
    }
  }
}
