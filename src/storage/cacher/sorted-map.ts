/**
 * A persistent sorted map from string keys to values: a B+tree whose nodes never change once built.
 *
 * `set` and `delete` return a new map and copy only the nodes on the path from the root to the
 * leaf they touch; every other node is shared with the map they started from. So an old version
 * costs nothing to keep: holding its root *is* the snapshot. The watch cache keeps the root after
 * every event in its window, which makes a read at a past revision as cheap as one at the current.
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

const MAX_SLOTS = 32;
const MIN_SLOTS = MAX_SLOTS / 2;

class Leaf<V> {
  readonly isLeaf = true;
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly V[],
  ) {}
  get size(): number {
    return this.keys.length;
  }
}

class Branch<V> {
  readonly isLeaf = false;
  constructor(
    /** seps.length === children.length - 1 */
    readonly seps: readonly string[],
    readonly children: readonly Node<V>[],
    readonly size: number,
  ) {}
}

type Node<V> = Leaf<V> | Branch<V>;

/** A node that split in two: `sep` is the right half's lower bound. */
interface Split<V> {
  readonly left: Node<V>;
  readonly sep: string;
  readonly right: Node<V>;
}

/** First index whose key is >= key. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The child of a branch that holds `key`: the number of separators <= key. */
function route(seps: readonly string[], key: string): number {
  let lo = 0;
  let hi = seps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seps[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function slots<V>(node: Node<V>): number {
  return node.isLeaf ? node.keys.length : node.children.length;
}

function insertAt<E>(items: readonly E[], index: number, item: E): E[] {
  const out = items.slice(0, index);
  out.push(item);
  for (let i = index; i < items.length; i++) out.push(items[i]!);
  return out;
}

function removeAt<E>(items: readonly E[], index: number): E[] {
  const out = items.slice(0, index);
  for (let i = index + 1; i < items.length; i++) out.push(items[i]!);
  return out;
}

function replaceAt<E>(items: readonly E[], index: number, item: E): E[] {
  const out = items.slice();
  out[index] = item;
  return out;
}

function sumSizes<V>(children: readonly Node<V>[]): number {
  let n = 0;
  for (const c of children) n += c.size;
  return n;
}

function branchOf<V>(seps: readonly string[], children: readonly Node<V>[]): Branch<V> {
  return new Branch(seps, children, sumSizes(children));
}

function splitBranch<V>(seps: readonly string[], children: readonly Node<V>[]): Split<V> {
  const mid = children.length >>> 1;
  return {
    left: branchOf(seps.slice(0, mid - 1), children.slice(0, mid)),
    sep: seps[mid - 1]!,
    right: branchOf(seps.slice(mid), children.slice(mid)),
  };
}

/** Inserts or replaces; `added` says which, so branch sizes stay right without a second pass. */
function insert<V>(node: Node<V>, key: string, value: V, added: boolean): Node<V> | Split<V> {
  if (node.isLeaf) {
    const i = lowerBound(node.keys, key);
    if (!added) return new Leaf(node.keys, replaceAt(node.values, i, value));
    const keys = insertAt(node.keys, i, key);
    const values = insertAt(node.values, i, value);
    if (keys.length <= MAX_SLOTS) return new Leaf(keys, values);
    const mid = keys.length >>> 1;
    return {
      left: new Leaf(keys.slice(0, mid), values.slice(0, mid)),
      sep: keys[mid]!,
      right: new Leaf(keys.slice(mid), values.slice(mid)),
    };
  }
  const i = route(node.seps, key);
  const result = insert(node.children[i]!, key, value, added);
  const size = node.size + (added ? 1 : 0);
  if (!('sep' in result)) return new Branch(node.seps, replaceAt(node.children, i, result), size);
  const children = insertAt(replaceAt(node.children, i, result.left), i + 1, result.right);
  const seps = insertAt(node.seps, i, result.sep);
  if (children.length <= MAX_SLOTS) return new Branch(seps, children, size);
  return splitBranch(seps, children);
}

/** Joins two adjacent siblings; `sep` is the parent's separator between them. */
function merge<V>(left: Node<V>, sep: string, right: Node<V>): Node<V> {
  if (left.isLeaf && right.isLeaf) {
    return new Leaf([...left.keys, ...right.keys], [...left.values, ...right.values]);
  }
  const l = left as Branch<V>;
  const r = right as Branch<V>;
  return new Branch([...l.seps, sep, ...r.seps], [...l.children, ...r.children], l.size + r.size);
}

/**
 * Moves one slot between adjacent siblings so that both have at least MIN_SLOTS; `sep` is the
 * parent's separator between them. Returns the new pair and the new separator.
 */
function shift<V>(left: Node<V>, sep: string, right: Node<V>, toRight: boolean): [Node<V>, string, Node<V>] {
  if (left.isLeaf && right.isLeaf) {
    if (toRight) {
      const last = left.keys.length - 1;
      const l = new Leaf(left.keys.slice(0, last), left.values.slice(0, last));
      const r = new Leaf([left.keys[last]!, ...right.keys], [left.values[last]!, ...right.values]);
      return [l, r.keys[0]!, r];
    }
    const l = new Leaf([...left.keys, right.keys[0]!], [...left.values, right.values[0]!]);
    const r = new Leaf(right.keys.slice(1), right.values.slice(1));
    return [l, r.keys[0]!, r];
  }
  const lb = left as Branch<V>;
  const rb = right as Branch<V>;
  if (toRight) {
    const last = lb.children.length - 1;
    const l = branchOf(lb.seps.slice(0, last - 1), lb.children.slice(0, last));
    const r = branchOf([sep, ...rb.seps], [lb.children[last]!, ...rb.children]);
    return [l, lb.seps[last - 1]!, r];
  }
  const l = branchOf([...lb.seps, sep], [...lb.children, rb.children[0]!]);
  const r = branchOf(rb.seps.slice(1), rb.children.slice(1));
  return [l, rb.seps[0]!, r];
}

/** Restores the minimum fill of `children[i]` (already replaced by `child`) in a copy of `parent`. */
function rebalance<V>(parent: Branch<V>, i: number, child: Node<V>): Branch<V> {
  const size = parent.size - 1;
  const li = i > 0 ? i - 1 : i; // index of the left node of the pair we fix
  const left = i > 0 ? parent.children[i - 1]! : child;
  const right = i > 0 ? child : parent.children[i + 1]!;
  const sep = parent.seps[li]!;
  const donor = i > 0 ? left : right;
  if (slots(donor) > MIN_SLOTS) {
    const [l, s, r] = shift(left, sep, right, i > 0);
    const children = parent.children.slice();
    children[li] = l;
    children[li + 1] = r;
    return new Branch(replaceAt(parent.seps, li, s), children, size);
  }
  const children = replaceAt(removeAt(parent.children, li + 1), li, merge(left, sep, right));
  return new Branch(removeAt(parent.seps, li), children, size);
}

/** Removes `key`; returns the very same node when the key is absent. */
function remove<V>(node: Node<V>, key: string): Node<V> {
  if (node.isLeaf) {
    const i = lowerBound(node.keys, key);
    if (i === node.keys.length || node.keys[i] !== key) return node;
    return new Leaf(removeAt(node.keys, i), removeAt(node.values, i));
  }
  const i = route(node.seps, key);
  const child = node.children[i]!;
  const next = remove(child, key);
  if (next === child) return node;
  if (slots(next) >= MIN_SLOTS) return new Branch(node.seps, replaceAt(node.children, i, next), node.size - 1);
  return rebalance(node, i, next);
}

/** Cuts `count` items into groups of at most MAX_SLOTS, as even as possible (each >= MIN_SLOTS when > 1). */
function groupBounds(count: number): number[] {
  const groups = Math.max(1, Math.ceil(count / MAX_SLOTS));
  const bounds = [0];
  for (let g = 1; g <= groups; g++) bounds.push(Math.round((count * g) / groups));
  return bounds;
}

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
    const result = insert(this.root, key, value, !this.has(key));
    if (!('sep' in result)) return new SortedMap(result);
    return new SortedMap(branchOf([result.sep], [result.left, result.right]));
  }

  /** A map without `key` (this very map when the key is absent). */
  delete(key: string): SortedMap<V> {
    let root = remove(this.root, key);
    if (root === this.root) return this;
    while (!root.isLeaf && root.children.length === 1) root = root.children[0]!;
    return new SortedMap(root);
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
