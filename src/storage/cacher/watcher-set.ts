/**
 * The watchers of one cache and the fan-out of changes to them.
 *
 * Dispatch cost per change is one Map lookup for single-key watchers plus, per distinct watched
 * prefix, one `startsWith` and then one filter call per watcher under it. Nothing is allocated per
 * watcher (the watch events are shared, see CachedEvent) and no promise is settled per event:
 * watchers whose consumer waits are collected and woken once when the batch is done.
 */
import type { StorageError } from '../errors.js';
import type { CachedEvent } from './cached-event.js';
import type { CacheWatcher } from './cache-watcher.js';

interface Group<T> {
  readonly name: string;
  readonly watchers: Set<CacheWatcher<T>>;
}

export class WatcherSet<T> {
  private readonly byKey = new Map<string, Group<T>>();
  private readonly byPrefix = new Map<string, Group<T>>();
  /** The prefix groups again, as an array: the dispatch loop walks it without allocating. */
  private prefixGroups: Group<T>[] = [];
  private readonly wakeList: CacheWatcher<T>[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(watcher: CacheWatcher<T>): void {
    const { range } = watcher.spec;
    const index = range.key === undefined ? this.byPrefix : this.byKey;
    const name = range.key ?? range.prefix;
    let group = index.get(name);
    if (group === undefined) {
      group = { name, watchers: new Set() };
      index.set(name, group);
      if (range.key === undefined) this.prefixGroups.push(group);
    }
    if (!group.watchers.has(watcher)) this.count++;
    group.watchers.add(watcher);
  }

  remove(watcher: CacheWatcher<T>): void {
    const { range } = watcher.spec;
    const index = range.key === undefined ? this.byPrefix : this.byKey;
    const name = range.key ?? range.prefix;
    const group = index.get(name);
    if (group === undefined || !group.watchers.delete(watcher)) return;
    this.count--;
    if (group.watchers.size > 0) return;
    index.delete(name);
    // A new array rather than a splice, so a dispatch loop walking the old one is undisturbed.
    if (range.key === undefined) this.prefixGroups = this.prefixGroups.filter((g) => g !== group);
  }

  /** Offers changes, in order, to every watcher whose range covers them; call flush() after. */
  dispatch(changes: readonly CachedEvent<T>[]): void {
    if (this.count === 0) return;
    for (const change of changes) {
      const exact = this.byKey.get(change.key);
      if (exact !== undefined) this.offer(exact.watchers, change);
      const groups = this.prefixGroups;
      for (let i = 0; i < groups.length; i++) {
        const group = groups[i]!;
        if (change.key.startsWith(group.name)) this.offer(group.watchers, change);
      }
    }
  }

  /** Wakes every waiting consumer that got something since the last flush. */
  flush(): void {
    for (let i = 0; i < this.wakeList.length; i++) this.wakeList[i]!.wake();
    this.wakeList.length = 0;
  }

  /** The idle-bookmark tick: offers a BOOKMARK at `revision` to every watcher (see CacheWatcher.bookmark). */
  tick(revision: number): void {
    for (const watcher of this.all()) {
      if (watcher.bookmark(revision, false)) this.wakeList.push(watcher);
    }
    this.flush();
  }

  /** Ends every watcher, with `error` when given. */
  closeAll(error?: StorageError): void {
    for (const watcher of [...this.all()]) {
      if (error === undefined) watcher.close();
      else watcher.fail(error);
    }
  }

  private offer(group: Set<CacheWatcher<T>>, change: CachedEvent<T>): void {
    for (const watcher of group) {
      if (watcher.deliver(change)) this.wakeList.push(watcher);
    }
  }

  private *all(): Generator<CacheWatcher<T>> {
    for (const group of this.byKey.values()) yield* group.watchers;
    for (const group of this.byPrefix.values()) yield* group.watchers;
  }
}
