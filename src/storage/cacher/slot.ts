/**
 * What the cache holds for one key at one revision: the decoded entry, or a marker for a value the
 * decoder could not read. A corrupt value stays in the cache (so a read of it fails with a clear
 * error instead of the key silently vanishing) until a delete removes it.
 */
import { StorageError, isStorageError } from '../errors.js';
import type { KeyValue } from '../storage.js';
import type { CacheEntry, Decoder } from './cache-types.js';

/** A stored value the decoder rejected; `error` is the 'corrupt' StorageError every read of it gets. */
export class CorruptValue {
  constructor(
    readonly key: string,
    readonly modRevision: number,
    readonly error: StorageError,
  ) {}
}

/** A decoded entry. */
export class DecodedEntry<T> implements CacheEntry<T> {
  constructor(
    readonly key: string,
    readonly object: T,
    readonly modRevision: number,
    readonly createRevision: number,
  ) {}
}

export type Slot<T> = CacheEntry<T> | CorruptValue;

export function isCorrupt<T>(slot: Slot<T>): slot is CorruptValue {
  return slot instanceof CorruptValue;
}

/**
 * Decodes one stored value into a fresh entry. Never throws: a decoder failure of any kind becomes
 * a CorruptValue carrying a StorageError('corrupt').
 */
export function decodeSlot<T>(decoder: Decoder<T>, kv: KeyValue): Slot<T> {
  try {
    // The stored bytes are not kept: the decoded object is what readers use, and holding both
    // would double the cache's memory.
    return new DecodedEntry(kv.key, decoder(kv), kv.modRevision, kv.createRevision);
  } catch (err) {
    const error = isStorageError(err, 'corrupt')
      ? err
      : new StorageError('corrupt', `storage: cannot decode the value of ${kv.key} at revision ${kv.modRevision}`, kv.key, kv.modRevision, { cause: err });
    return new CorruptValue(kv.key, kv.modRevision, error);
  }
}

/** The error a list gets when its page holds corrupt values; it names every such key, and carries why each failed. */
export function corruptList(values: readonly CorruptValue[]): StorageError {
  const corruptValues = values.map((v) => ({ key: v.key, revision: v.modRevision, reason: reasonOf(v.error) }));
  return new StorageError('corrupt', `storage: cannot decode the stored values of: ${values.map((v) => v.key).join(', ')}`, values[0]?.key, undefined, { corruptValues });
}

/** The decoder's words for a corrupt value (the cause the slot's error wraps, when it has one). */
function reasonOf(error: StorageError): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}
