/**
 * An Allocator whose source of truth is the storage: value v is taken while the key
 * `{prefix}{v}` exists. Taking a value is a create of that key, which fails for everyone but
 * one writer, so several server replicas on one store never hand out a value twice. A replica
 * keeps nothing in memory between calls.
 *
 * Worked example (prefix /registry/capstan/servicenodeports/, range 30000-32767): allocateNext
 * lists the prefix, finds 30086..30090 taken, picks a random free port in the upper band, say
 * 31745, and creates /registry/capstan/servicenodeports/31745. If another replica created that key
 * in the meantime, the create fails with key-exists and the next free port is tried.
 */
import type { Storage } from '../../storage/storage.js';
import { isStorageError } from '../../storage/errors.js';
import { AllocationError, type Allocator } from './allocator.js';
import type { ValueRange } from './value-range.js';

export interface StorageAllocatorOptions<T> {
  readonly storage: Storage;
  /** Key prefix ending in "/", e.g. "/registry/capstan/serviceips/". */
  readonly prefix: string;
  readonly range: ValueRange<T>;
  /** What the range holds, for messages ("serviceIP", "nodePort"). */
  readonly noun: string;
  /** Random source in [0, 1) for the starting point of a search. */
  readonly random?: () => number;
}

const encoder = new TextEncoder();

export class StorageAllocator<T> implements Allocator<T> {
  readonly range: string;

  constructor(private readonly options: StorageAllocatorOptions<T>) {
    this.range = options.range.description;
  }

  contains(value: T): boolean {
    return this.options.range.offsetOf(value) !== undefined;
  }

  async allocate(value: T, owner: string): Promise<void> {
    if (!this.contains(value)) throw new AllocationError('out-of-range', `${String(value)} is not in the range ${this.range}`);
    if (!(await this.tryCreate(value, owner))) throw new AllocationError('taken', `${String(value)} is already allocated`);
  }

  async allocateNext(owner: string): Promise<T> {
    const taken = await this.takenOffsets();
    for (const offset of this.candidates(taken)) {
      const value = this.options.range.valueAt(offset);
      if (await this.tryCreate(value, owner)) return value;
      taken.add(offset);
    }
    throw new AllocationError('full', `failed to allocate a ${this.options.noun}: range is full`);
  }

  async peekNext(): Promise<T> {
    const taken = await this.takenOffsets();
    for (const offset of this.candidates(taken)) return this.options.range.valueAt(offset);
    throw new AllocationError('full', `failed to allocate a ${this.options.noun}: range is full`);
  }

  async isFree(value: T): Promise<boolean> {
    const { kv } = await this.options.storage.get(this.keyOf(value));
    return kv === undefined;
  }

  async release(value: T): Promise<void> {
    if (!this.contains(value)) return;
    try {
      await this.options.storage.delete(this.keyOf(value));
    } catch (err) {
      if (!isStorageError(err, 'not-found')) throw err;
    }
  }

  private keyOf(value: T): string {
    return `${this.options.prefix}${this.options.range.keyOf(value)}`;
  }

  /** Creates the marker; false when someone holds the value already. */
  private async tryCreate(value: T, owner: string): Promise<boolean> {
    try {
      await this.options.storage.create(this.keyOf(value), encoder.encode(JSON.stringify({ owner })));
      return true;
    } catch (err) {
      if (isStorageError(err, 'key-exists')) return false;
      throw err;
    }
  }

  private async takenOffsets(): Promise<Set<number>> {
    const taken = new Set<number>();
    const { range, prefix, storage } = this.options;
    let startKey: string | undefined;
    for (;;) {
      const page = await storage.list(prefix, { limit: 1000, ...(startKey === undefined ? {} : { startKey }) });
      for (const kv of page.kvs) {
        const value = range.valueOfKey(kv.key.slice(prefix.length));
        const offset = value === undefined ? undefined : range.offsetOf(value);
        if (offset !== undefined) taken.add(offset);
      }
      const last = page.kvs[page.kvs.length - 1];
      if (page.remaining === 0 || last === undefined) return taken;
      startKey = `${last.key}\u0000`;
    }
  }

  /**
   * Free offsets in the order they are tried: within each band, from a random point onward,
   * wrapping around; the `taken` set is read live so values lost to a race are skipped.
   */
  private *candidates(taken: ReadonlySet<number>): Generator<number> {
    const random = this.options.random ?? Math.random;
    for (const [start, end] of this.options.range.dynamicBands) {
      const width = end - start;
      if (width <= 0) continue;
      const first = Math.floor(random() * width);
      for (let i = 0; i < width; i++) {
        const offset = start + ((first + i) % width);
        if (!taken.has(offset)) yield offset;
      }
    }
  }
}
