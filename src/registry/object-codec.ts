/**
 * How objects are stored: JSON bytes without metadata.resourceVersion (the revision is the
 * storage's, injected on read as upstream does). Protobuf storage comes with the Protobuf codec.
 */
import type { KeyValue } from '../storage/storage.js';
import { StorageError } from '../storage/errors.js';
import type { KubeObject } from './object.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The object each value encodeForStorage made was made from, until those bytes are decoded. The
 * embedded store hands the watch cache the very bytes it was given to write, so the cache takes
 * the written object instead of parsing its JSON again (a create's largest cost after TLS). The
 * writer gives the object up with the write: nothing changes it afterwards.
 */
const encodedFrom = new WeakMap<Uint8Array, KubeObject>();

/** Bytes to store for an object (its resourceVersion is dropped). */
export function encodeForStorage(object: KubeObject): Uint8Array {
  const meta = object.metadata;
  let bytes: Uint8Array;
  if (meta?.resourceVersion === undefined) bytes = encoder.encode(JSON.stringify(object));
  else {
    const { resourceVersion: _dropped, ...rest } = meta;
    bytes = encoder.encode(JSON.stringify({ ...object, metadata: rest }));
  }
  encodedFrom.set(bytes, object);
  return bytes;
}

/**
 * Decodes stored bytes into an object whose metadata.resourceVersion is the key's modRevision.
 * Throws StorageError('corrupt') naming the key for bytes that are not a stored object.
 */
export function decodeFromStorage(kv: KeyValue): KubeObject {
  const written = encodedFrom.get(kv.value);
  if (written !== undefined) {
    encodedFrom.delete(kv.value);
    (written.metadata ??= {}).resourceVersion = String(kv.modRevision);
    return written;
  }
  let object: unknown;
  try {
    object = JSON.parse(decoder.decode(kv.value));
  } catch (err) {
    throw new StorageError('corrupt', `object stored at ${kv.key} cannot be decoded: ${(err as Error).message}`, kv.key);
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw new StorageError('corrupt', `object stored at ${kv.key} is not an object`, kv.key);
  }
  const o = object as KubeObject;
  // Where resourceVersion sits in metadata does not matter here: responses put metadata in
  // upstream's order when they are encoded.
  (o.metadata ??= {}).resourceVersion = String(kv.modRevision);
  return o;
}
