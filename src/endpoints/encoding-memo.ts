/**
 * The response encodings of the watch cache's objects and events, memoized and bounded in total
 * size.
 *
 * The cache's objects are shared and never change (a new revision is a new object), so their
 * identity names their encodings: a get, a list or a watch answers from the memo, and an object is
 * encoded once per revision however often it is read or watched. Unbounded, the memo would grow
 * by about the JSON size of everything ever read (one `kubectl get -A` of a large cluster) and
 * stay there for as long as the objects do. So it keeps at most a budget of bytes and forgets the
 * oldest encodings first: what is read again soon is still served from it. It never keeps an
 * object alive: encodings hang off their object weakly, and the budget's queue holds only bytes.
 */

import { Fifo } from '../util/fifo.js';

/**
 * One object's memoized encodings. Most objects only ever have one (the JSON a get or a list
 * answers with), so the first is kept in fields of its own and a map is only made for more: a
 * get's lookup is then one WeakMap probe, not a WeakMap and a Map probe.
 */
class Encodings {
  private firstKey: string | undefined = undefined;
  private first: Uint8Array | undefined = undefined;
  private more: Map<string, Uint8Array> | undefined = undefined;

  get(key: string): Uint8Array | undefined {
    return this.firstKey === key ? this.first : this.more?.get(key);
  }

  /** Only for a key {@link get} does not know. */
  set(key: string, bytes: Uint8Array): void {
    if (this.firstKey === undefined) {
      this.firstKey = key;
      this.first = bytes;
    } else {
      (this.more ??= new Map()).set(key, bytes);
    }
  }

  delete(key: string): void {
    if (this.firstKey === key) {
      this.firstKey = undefined;
      this.first = undefined;
    } else {
      this.more?.delete(key);
    }
  }
}

/** One memoized encoding, in the order they were made: its object's encodings, never the object. */
interface Held {
  readonly encodings: Encodings;
  readonly key: string;
  readonly bytes: Uint8Array;
}

export class EncodingMemo {
  /** Each object's memoized encodings, by the key the caller chose (e.g. a media type). */
  private readonly byObject = new WeakMap<object, Encodings>();
  /** Every memoized encoding, oldest first: the order they are forgotten in. */
  private readonly held = new Fifo<Held>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Bytes held now (for tests). */
  get size(): number {
    return this.total;
  }

  /**
   * The encoding of `object` memoized under `key`, else `encode()`'s, memoized within the budget.
   * `object` must not change afterwards.
   */
  get(object: object, key: string, encode: () => Uint8Array): Uint8Array {
    let encodings = this.byObject.get(object);
    const memoized = encodings?.get(key);
    if (memoized !== undefined) return memoized;
    const bytes = encode();
    if (bytes.length > this.budgetBytes) return bytes;
    if (encodings === undefined) this.byObject.set(object, (encodings = new Encodings()));
    encodings.set(key, bytes);
    this.held.push({ encodings, key, bytes });
    this.total += bytes.length;
    while (this.total > this.budgetBytes) this.forgetOldest();
    return bytes;
  }

  private forgetOldest(): void {
    const oldest = this.held.shift()!;
    this.total -= oldest.bytes.length;
    // Emptied encodings stay with their object until the object goes (the WeakMap lets both go).
    oldest.encodings.delete(oldest.key);
  }
}

/**
 * The server's budget for memoized response encodings: 32 MiB, room for a list of ~25,000
 * ConfigMaps of 1 KiB in one encoding; beyond that, reads encode again (~5 µs per 1 KiB object).
 */
export const RESPONSE_ENCODINGS_BUDGET = 32 * 1024 * 1024;
