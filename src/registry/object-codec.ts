/**
 * How objects are stored: JSON bytes without metadata.resourceVersion (the revision is the
 * storage's, injected on read as upstream does). Protobuf storage comes with the Protobuf codec.
 */
import type { KeyValue } from '../storage/storage.js';
import { StorageError } from '../storage/errors.js';
import type { KubeObject } from './object.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes to store for an object (its resourceVersion is dropped). */
export function encodeForStorage(object: KubeObject): Uint8Array {
  const meta = object.metadata;
  if (meta?.resourceVersion === undefined) return encoder.encode(JSON.stringify(object));
  const { resourceVersion: _dropped, ...rest } = meta;
  return encoder.encode(JSON.stringify({ ...object, metadata: rest }));
}

/**
 * Decodes stored bytes into an object whose metadata.resourceVersion is the key's modRevision.
 * Throws StorageError('corrupt') naming the key for bytes that are not a stored object.
 */
export function decodeFromStorage(kv: KeyValue): KubeObject {
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
