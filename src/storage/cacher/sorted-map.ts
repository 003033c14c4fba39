/**
 * A persistent sorted map from string keys to values: a B+tree whose nodes never change once built.
 *
 * `set` and `delete` return a new map and copy only the nodes on the path from the root to the
 * leaf they touch; every other node is shared with the map they started from. So an old version
 * costs nothing to keep: holding its root *is* the snapshot. The watch cache keeps a root every
 * so many events in its window (event-window.ts), which makes a read at a past revision nearly as
 * cheap as one at the current. Between the versions it keeps, it puts with an editor
 * ({@link SortedMapEditor}), which copies each node once per run of puts instead of once per put.
 *
 * Worked example, with a fanout of 4 instead of 32 to keep it short. The map {a,b,c,d,e,f} is
 *
 *              Branch seps=[c, e] size=6
 *             /          |           \
 *     Leaf [a,b]     Leaf [c,d]     Leaf [e,f]
 *
 * A separator `seps[i]` is a lower bound of child i+1 and above everything in child i; it need not
 * be a key still present. `set("d2", v)` copies Leaf [c,d] into [c,d,d2] and the branch into one
 * with the new leaf in slot 1 and size 7; the leaves [a,b] and [e,f] are now shared by both
 * versions. A leaf that grows past 32 keys splits in two and hands the right half's first key up as
 * a new separator; a node that shrinks below 16 borrows from a sibling or merges with it.
 *
 * Every branch knows its size, so "how many keys sort before k" costs O(log n): the list's
 * `remaining` count needs that.
 *
 * Keys compare as JavaScript strings (UTF-16 code units); the watch cache stores keys in their
 * sortKey() form so that this is the store's byte order.
 */

import { Branch, Leaf, branchOf, groupBounds, insert, lowerBound, remove, route, type Node, type Replaced } from './btree-node.js';

/**
 * A read position in one version of a map. It walks keys in ascending order and stays valid
 * however the map is changed afterwards, because the version it reads never changes.
 */
export class SortedMapCursor<V> {
  private readonly path: { node: Branch<V>; index: number }[] = [];
  private leaf: Leaf<V> | undefined;
  private index = 0;

  /** @internal built by {@link SortedMap.cursor} */
  constructor(root: Node<V>, from: string) {
    let node = root;
    while (!node.isLeaf) {
      const index = route(node.seps, from);
      this.path.push({ node, index });
      node = node.children[index]!;
    }
    this.leaf = node;
    this.index = lowerBound(node.keys, from);
    if (this.index >= node.keys.length) this.nextLeaf();
  }

  /** The key at the position, or undefined past the end. */
  get key(): string | undefined {
    return this.leaf?.keys[this.index];
  }

  /** The value at the position, or undefined past the end. */
  get value(): V | undefined {
    return this.leaf?.values[this.index];
  }

  /** Moves to the next key. */
  advance(): void {
    if (this.leaf === undefined) return;
    this.index++;
    if (this.index >= this.leaf.keys.length) this.nextLeaf();
  }

  private nextLeaf(): void {
    while (this.path.length > 0) {
      const top = this.path[this.path.length - 1]!;
      if (top.index + 1 < top.node.children.length) {
        top.index++;
        let node = top.node.children[top.index]!;
        while (!node.isLeaf) {
          this.path.push({ node, index: 0 });
          node = node.children[0]!;
        }
        this.leaf = node;
        this.index = 0;
        if (node.keys.length > 0) return;
        continue;
      }
      this.path.pop();
    }
    this.leaf = undefined;
  }
}

/** An immutable sorted map; every change returns a new map that shares structure with this one. */
export class SortedMap<V> {
  private constructor(private readonly root: Node<V>) {}

  /** @internal a sealed editor's map */
  static ofRoot<V>(root: Node<V>): SortedMap<V> {
    return new SortedMap(root);
  }

  static empty<V>(): SortedMap<V> {
    return new SortedMap<V>(new Leaf<V>([], []));
  }

  /**
   * Builds a map from entries sorted by key, in O(n). Throws a RangeError if the keys are not
   * strictly ascending.
   */
  static fromSorted<V>(keys: readonly string[], values: readonly V[]): SortedMap<V> {
    for (let i = 1; i < keys.length; i++) {
      if (!(keys[i - 1]! < keys[i]!)) throw new RangeError(`SortedMap.fromSorted: keys out of order at ${i}`);
    }
    const bounds = groupBounds(keys.length);
    let level: Node<V>[] = [];
    let lows: string[] = [];
    for (let g = 0; g + 1 < bounds.length; g++) {
      level.push(new Leaf(keys.slice(bounds[g], bounds[g + 1]), values.slice(bounds[g], bounds[g + 1])));
      lows.push(keys[bounds[g]!] ?? '');
    }
    while (level.length > 1) {
      const up = groupBounds(level.length);
      const next: Node<V>[] = [];
      const nextLows: string[] = [];
      for (let g = 0; g + 1 < up.length; g++) {
        next.push(branchOf(lows.slice(up[g]! + 1, up[g + 1]), level.slice(up[g], up[g + 1])));
        nextLows.push(lows[up[g]!]!);
      }
      level = next;
      lows = nextLows;
    }
    return new SortedMap(level[0]!);
  }

  get size(): number {
    return this.root.size;
  }

  get(key: string): V | undefined {
    let node = this.root;
    while (!node.isLeaf) node = node.children[route(node.seps, key)]!;
    const i = lowerBound(node.keys, key);
    return node.keys[i] === key ? node.values[i] : undefined;
  }

  has(key: string): boolean {
    let node = this.root;
    while (!node.isLeaf) node = node.children[route(node.seps, key)]!;
    return node.keys[lowerBound(node.keys, key)] === key;
  }

  /** A map with `key` set to `value`; this map is unchanged. */
  set(key: string, value: V): SortedMap<V> {
    const result = insert(this.root, key, value, { previous: undefined });
    return new SortedMap('sep' in result ? branchOf([result.sep], [result.left, result.right]) : result);
  }

  /** A map without `key` (this very map when the key is absent). */
  delete(key: string): SortedMap<V> {
    let root = remove(this.root, key);
    if (root === this.root) return this;
    while (!root.isLeaf && root.children.length === 1) root = root.children[0]!;
    return new SortedMap(root);
  }

  /**
   * An editor that starts from this map (which it leaves unchanged) and makes a run of puts
   * cheaper than as many {@link put}s; see {@link SortedMapEditor}.
   */
  edit(): SortedMapEditor<V> {
    return new SortedMapEditor(this.root);
  }

  /** How many keys sort before `key` (undefined: all of them). O(log n). */
  countBefore(key: string | undefined): number {
    if (key === undefined) return this.root.size;
    let count = 0;
    let node = this.root;
    while (!node.isLeaf) {
      const i = route(node.seps, key);
      for (let c = 0; c < i; c++) count += node.children[c]!.size;
      node = node.children[i]!;
    }
    return count + lowerBound(node.keys, key);
  }

  /** A cursor at the first key >= `from`. */
  cursor(from = ''): SortedMapCursor<V> {
    return new SortedMapCursor(this.root, from);
  }
}

/**
 * A run of puts into a map that nobody reads in the meantime, sealed into a SortedMap at the end.
 *
 * The map's persistence costs a copy of every node from the root to the leaf on each put, and the
 * watch cache only needs a whole version now and then (a checkpoint, a read). An editor copies a
 * node the first time a put touches it and then changes its copy in place, so the root and the
 * branches below it are copied once per run (btree-node.ts, insert). Its map is valid only
 * once sealed; the editor must not be used after that.
 */
export class SortedMapEditor<V> {
  private readonly mark = {};
  private sealed = false;

  /** @internal made by {@link SortedMap.edit} */
  constructor(private root: Node<V>) {}

  /** Sets `key` to `value`; returns the value it had. */
  put(key: string, value: V): V | undefined {
    if (this.sealed) throw new Error('SortedMapEditor: put after seal');
    const replaced: Replaced<V> = { previous: undefined };
    const result = insert(this.root, key, value, replaced, this.mark);
    this.root = 'sep' in result ? new Branch([result.sep], [result.left, result.right], result.left.size + result.right.size, this.mark) : result;
    return replaced.previous;
  }

  /** The map as edited; the editor is done. */
  seal(): SortedMap<V> {
    this.sealed = true;
    return SortedMap.ofRoot(this.root);
  }
}
