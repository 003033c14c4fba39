/**
 * The nodes of the persistent B+tree behind SortedMap (see sorted-map.ts for the picture) and the
 * path-copying operations on them. A node is never modified once any map holds it: every
 * operation returns new nodes along the path it changed and shares the rest. The one exception is
 * an editor's own nodes, made by it and held by no map yet ({@link insert}).
 */

const MAX_SLOTS = 32;
const MIN_SLOTS = MAX_SLOTS / 2;

/**
 * An editor's mark (see {@link insert}): nodes it made carry it while it edits, and only
 * those may change in place. Once it is sealed nothing carries a live mark any more.
 */
export type EditMark = object;

export class Leaf<V> {
  readonly isLeaf = true;
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly V[],
    /** The editor that made this node, while it may still change it; otherwise undefined. */
    readonly mark: EditMark | undefined = undefined,
  ) {}
  get size(): number {
    return this.keys.length;
  }
}

export class Branch<V> {
  readonly isLeaf = false;
  constructor(
    /** seps.length === children.length - 1 */
    readonly seps: readonly string[],
    readonly children: readonly Node<V>[],
    /** Changes only while an editor owns the node (see {@link insert}). */
    public size: number,
    readonly mark: EditMark | undefined = undefined,
  ) {}
}

export type Node<V> = Leaf<V> | Branch<V>;

/** A node that split in two: `sep` is the right half's lower bound. */
export interface Split<V> {
  readonly left: Node<V>;
  readonly sep: string;
  readonly right: Node<V>;
}

/** First index whose key is >= key. */
export function lowerBound(keys: readonly string[], key: string): number {
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
export function route(seps: readonly string[], key: string): number {
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

export function branchOf<V>(seps: readonly string[], children: readonly Node<V>[]): Branch<V> {
  return new Branch(seps, children, sumSizes(children));
}

function splitBranch<V>(seps: readonly string[], children: readonly Node<V>[], mark?: EditMark): Split<V> {
  const mid = children.length >>> 1;
  const left = seps.slice(0, mid - 1);
  const right = seps.slice(mid);
  return {
    left: new Branch(left, children.slice(0, mid), sumSizes(children.slice(0, mid)), mark),
    sep: seps[mid - 1]!,
    right: new Branch(right, children.slice(mid), sumSizes(children.slice(mid)), mark),
  };
}

/** Whether an editor's `mark` lets it change `node` in place (never without a mark). */
function owns<V>(mark: EditMark | undefined, node: Node<V>): boolean {
  return mark !== undefined && node.mark === mark;
}

/** Where {@link insert} reports the value a replaced key had (undefined for a new key). */
export interface Replaced<V> {
  previous: V | undefined;
}

/**
 * Inserts `key` or replaces its value, in one walk down; reports the value it replaced. Nodes on
 * the path are copied and the copies changed, so every map holding the old nodes is unchanged.
 *
 * With an editor's `mark`, a node that carries the mark is changed in place instead, and copies
 * carry it: the editor's later inserts change them in place. So a run of inserts between two
 * snapshots copies each node it touches once, not once per insert: the root and the branches
 * below it are shared by nearly every insert of a run. Nodes without the mark belong to maps
 * someone may hold, and are never changed.
 */
export function insert<V>(node: Node<V>, key: string, value: V, replaced: Replaced<V>, mark?: EditMark): Node<V> | Split<V> {
  if (node.isLeaf) {
    const leaf = owns(mark, node) ? node : new Leaf(node.keys.slice(), node.values.slice(), mark);
    const keys = leaf.keys as string[];
    const values = leaf.values as V[];
    const i = lowerBound(keys, key);
    if (keys[i] === key) {
      replaced.previous = values[i];
      values[i] = value;
      return leaf;
    }
    replaced.previous = undefined;
    keys.splice(i, 0, key);
    values.splice(i, 0, value);
    if (keys.length <= MAX_SLOTS) return leaf;
    const mid = keys.length >>> 1;
    return {
      left: new Leaf(keys.slice(0, mid), values.slice(0, mid), mark),
      sep: keys[mid]!,
      right: new Leaf(keys.slice(mid), values.slice(mid), mark),
    };
  }
  const i = route(node.seps, key);
  const child = node.children[i]!;
  const before = child.size;
  const result = insert(child, key, value, replaced, mark);
  const branch = owns(mark, node) ? node : new Branch(node.seps.slice(), node.children.slice(), node.size, mark);
  const children = branch.children as Node<V>[];
  if (!('sep' in result)) {
    children[i] = result;
    branch.size += result.size - before;
    return branch;
  }
  children.splice(i, 1, result.left, result.right);
  (branch.seps as string[]).splice(i, 0, result.sep);
  branch.size += result.left.size + result.right.size - before;
  if (children.length <= MAX_SLOTS) return branch;
  return splitBranch(branch.seps, children, mark);
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
export function remove<V>(node: Node<V>, key: string): Node<V> {
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
export function groupBounds(count: number): number[] {
  const groups = Math.max(1, Math.ceil(count / MAX_SLOTS));
  const bounds = [0];
  for (let g = 1; g <= groups; g++) bounds.push(Math.round((count * g) / groups));
  return bounds;
}
