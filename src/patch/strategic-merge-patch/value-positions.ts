/**
 * Where a value first occurs in a list, answered the way upstream's linear scans answer it (Go `==`
 * on interface values), without rescanning: a merge of n patch elements into a list of n would
 * otherwise cost n² comparisons, which a large patch could use to hold the event loop.
 */
import { MAP_TYPE, SLICE_TYPE, goPanic, goTypeOf, isJsonMap, type GoType } from './go-value.js';
import { mergeFailure } from './smp-errors.js';

/**
 * First positions of values, as a scan with Go's `==` finds them. Looking up a map or slice panics
 * as Go's comparison does when the list holds a value of the same type.
 */
export class FirstPositions {
  readonly #first = new Map<unknown, number>();
  readonly #uncomparable = new Set<GoType>();

  /** Records `value` at position `at`, unless an equal value came earlier. */
  add(value: unknown, at: number): void {
    const type = goTypeOf(value);
    if (type === MAP_TYPE || type === SLICE_TYPE) {
      this.#uncomparable.add(type);
      return;
    }
    const key = value ?? null;
    if (!this.#first.has(key)) this.#first.set(key, at);
  }

  /** The first position holding a value equal to `value`, or -1. */
  find(value: unknown): number {
    const type = goTypeOf(value);
    if (type === MAP_TYPE || type === SLICE_TYPE) {
      // Go compares against every element; one of the same type panics.
      if (this.#uncomparable.has(type)) throw goPanic(`runtime error: comparing uncomparable type ${type}`);
      return -1;
    }
    return this.#first.get(value ?? null) ?? -1;
  }

  /** Positions of the values of `list` (element i is `valueOf(list[i])`). */
  static of<T>(list: readonly T[], valueOf: (item: T) => unknown): FirstPositions {
    const positions = new FirstPositions();
    list.forEach((item, i) => positions.add(valueOf(item), i));
    return positions;
  }
}

/**
 * A list of maps searched by merge key (upstream's findMapInSliceBasedOnKeyValue): the first map
 * whose key equals the value; maps without the key are passed over; a non-map met before the match
 * fails the search. Appending keeps the index current.
 */
export class MergeKeyIndex {
  readonly #mergeKey: string;
  readonly #positions = new FirstPositions();
  #firstNonMap = -1;
  #length = 0;

  constructor(list: readonly unknown[], mergeKey: string) {
    this.#mergeKey = mergeKey;
    for (const item of list) this.add(item);
  }

  /** Records the next element of the list. */
  add(item: unknown): void {
    const at = this.#length++;
    if (!isJsonMap(item)) {
      if (this.#firstNonMap < 0) this.#firstNonMap = at;
    } else if (Object.hasOwn(item, this.#mergeKey)) {
      this.#positions.add(item[this.#mergeKey], at);
    }
  }

  /**
   * The position of the first map whose merge key equals `value`, or -1. Throws 500 `value for key
   * N is not a map` when the scan meets a non-map first, as upstream's does.
   */
  find(value: unknown): number {
    const at = this.#positions.find(value);
    if (this.#firstNonMap >= 0 && (at < 0 || this.#firstNonMap < at)) {
      throw mergeFailure(`value for key ${this.#firstNonMap} is not a map`);
    }
    return at;
  }
}
