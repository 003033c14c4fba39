/**
 * The order of a merged list. Upstream splits the merged elements into those the patch (or a
 * `$setElementOrder` list) names and those only the server has, sorts the first group by the
 * patch's order and the second by the live list's order, then interleaves them, keeping each
 * group's order and placing a server-only element before a patch element when the live list had
 * it first. Worked example, live [a b c d], patch [d a] (merge by name):
 *
 *   patch group [d a], server-only group [b c]
 *   interleave: b vs d → live has b before d → b; c vs d → c; then d, a → [b c d a]
 *
 * Elements the reference list lacks compare as upstream's comparator has them ("less"), which
 * {@link goStableSort} turns into upstream's exact order.
 */
import { goStableSort } from './go-stable-sort.js';
import { MAP_TYPE, SLICE_TYPE, formatGo, goHashKey, goPanic, goTypeOf, isJsonMap, memberOf, type GoType, type JsonMap } from './go-value.js';
import { DELETE, PATCH_DIRECTIVE } from './directives.js';
import { listOfLists, mergeFailure, noMergeKey, notAMap } from './smp-errors.js';
import { FirstPositions, MergeKeyIndex } from './value-positions.js';

export interface Partition {
  /** Merged elements the reference list names. */
  readonly named: unknown[];
  /** Merged elements it does not name: the server's own. */
  readonly serverOnly: unknown[];
}

/**
 * The one Go type of all elements of `lists` (upstream's sliceElementType). Throws 422 for a list
 * of lists, 500 for mixed types or no elements at all, and a panic (500) when the first element is
 * null, as upstream's nil type dereference does.
 */
export function elementType(...lists: readonly (readonly unknown[])[]): GoType {
  let type: GoType | undefined;
  for (const list of lists) {
    for (const item of list) {
      const t = goTypeOf(item);
      if (type === undefined) {
        if (t === 'nil') throw goPanic('runtime error: invalid memory address or nil pointer dereference');
        if (t === SLICE_TYPE) throw listOfLists();
        type = t;
      } else if (t !== type) {
        throw mergeFailure(`list element types are not identical: ${formatGo(lists)}`);
      }
    }
  }
  if (type === undefined) throw mergeFailure('no elements in any of the given slices');
  return type;
}

/** Splits scalars by whether `reference` holds an equal value. */
export function partitionScalars(merged: readonly unknown[], reference: readonly unknown[]): Partition {
  const named = new Set(reference.map(goHashKey));
  const partition: Partition = { named: [], serverOnly: [] };
  for (const item of merged) (named.has(goHashKey(item)) ? partition.named : partition.serverOnly).push(item);
  return partition;
}

/** Splits maps by whether `reference` holds a map with an equal merge key. Throws 500 for an element without one. */
export function partitionMaps(merged: readonly unknown[], reference: readonly unknown[], mergeKey: string): Partition {
  const index = new MergeKeyIndex(reference, mergeKey);
  const partition: Partition = { named: [], serverOnly: [] };
  for (const item of merged) {
    if (!isJsonMap(item)) throw notAMap(item);
    if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    (index.find(item[mergeKey]) >= 0 ? partition.named : partition.serverOnly).push(item);
  }
  return partition;
}

/** Positions in a reference list: by merge key for lists of maps, by value otherwise (upstream's index). */
class ReferenceOrder {
  readonly #positions: FirstPositions;
  readonly #valueOf: (item: unknown) => unknown;

  constructor(reference: readonly unknown[], mergeKey: string, type: GoType) {
    this.#valueOf = type === MAP_TYPE ? (item) => (isJsonMap(item) ? (memberOf(item, mergeKey) ?? null) : null) : (item) => item;
    this.#positions = FirstPositions.of(reference, this.#valueOf);
  }

  indexOf(item: unknown): number {
    return this.#positions.find(this.#valueOf(item));
  }
}

function requireMergeKeys(mergeKey: string, ...lists: readonly (readonly unknown[])[]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonMap(item)) throw notAMap(item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

/** Splits off maps marked `$patch: delete` (upstream's extractToDeleteItems). Throws 500 for a non-map. */
export function splitDeletions(list: readonly unknown[]): { kept: JsonMap[]; deleted: JsonMap[] } {
  const out = { kept: [] as JsonMap[], deleted: [] as JsonMap[] };
  for (const item of list) {
    if (!isJsonMap(item)) throw notAMap(item);
    (memberOf(item, PATCH_DIRECTIVE) === DELETE ? out.deleted : out.kept).push(item);
  }
  return out;
}

/** Sorts `items` by their position in `reference`; maps marked for deletion go last. */
function sortByReference(items: readonly unknown[], reference: readonly unknown[], mergeKey: string, type: GoType): unknown[] {
  let sorted: unknown[] = [...items];
  let deleted: unknown[] = [];
  if (type === MAP_TYPE) {
    requireMergeKeys(mergeKey, items, reference);
    ({ kept: sorted, deleted } = splitDeletions(items));
  }
  const order = new ReferenceOrder(reference, mergeKey, type);
  goStableSort(sorted, (a, b) => {
    const ia = order.indexOf(a);
    if (ia < 0) return true;
    const ib = order.indexOf(b);
    return ib < 0 || ia < ib;
  });
  return [...sorted, ...deleted];
}

/** Interleaves two sorted groups, taking the server's element first only when the live list had it first. */
function interleave(serverOnly: readonly unknown[], named: readonly unknown[], order: ReferenceOrder): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < named.length) {
    if (j >= named.length) {
      out.push(serverOnly[i++]);
    } else if (i >= serverOnly.length) {
      out.push(named[j++]);
    } else {
      const li = order.indexOf(serverOnly[i]);
      const ri = order.indexOf(named[j]);
      out.push(li >= 0 && ri >= 0 && li < ri ? serverOnly[i++] : named[j++]);
    }
  }
  return out;
}

/**
 * The final order of a merged list (upstream's normalizeElementOrder): `partition.named` sorted by
 * `namedOrder`, `partition.serverOnly` sorted by `serverOrder`, interleaved by `serverOrder`.
 * Throws 500 when a map in either group or either order lacks the merge key.
 */
export function normalizeOrder(partition: Partition, namedOrder: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string, type: GoType): unknown[] {
  const named = sortByReference(partition.named, namedOrder, mergeKey, type);
  const serverOnly = sortByReference(partition.serverOnly, serverOrder, mergeKey, type);
  return interleave(serverOnly, named, new ReferenceOrder(serverOrder, mergeKey, type));
}
