/**
 * How objects are stored: JSON bytes without metadata.resourceVersion (the revision is the
 * storage's, injected on read as upstream does). Protobuf storage comes with the Protobuf codec.
 */
import type { KeyValue } from '../storage/storage.js';
import { StorageError } from '../storage/errors.js';
import type { KubeObject } from './object.js';

const decoder = new TextDecoder();

/**
 * The object each value encodeForStorage made was made from, until those bytes are decoded. The
 * embedded store hands the watch cache the very bytes it was given to write, so the cache takes
 * the written object instead of parsing its JSON again (a create's largest cost after TLS). The
 * writer gives the object up with the write: nothing changes it afterwards.
 */
const encodedFrom = new WeakMap<Uint8Array, KubeObject>();

/**
 * Bytes to store for an object (its resourceVersion is dropped).
 *
 * Buffer.from, not TextEncoder: a value under 4 KiB then takes a slice of Buffer's shared pool
 * instead of a backing store of its own, and making a backing store cost 4-5 µs per value in Node
 * 20, four times the whole encoding. The bytes live only until the write's event is decoded (the
 * embedded store copies them into its batch, etcd into its request; no cache keeps them), so a
 * slice cannot keep a pool slab alive for long.
 */
export function encodeForStorage(object: KubeObject): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(withoutResourceVersion(object)), 'utf8');
  encodedFrom.set(bytes, object);
  return bytes;
}

/** `object` itself when it has no resourceVersion, else a shallow copy without it. */
function withoutResourceVersion(object: KubeObject): KubeObject {
  const meta = object.metadata;
  if (meta?.resourceVersion === undefined) return object;
  const { resourceVersion: _dropped, ...rest } = meta;
  return { ...object, metadata: rest };
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
    shareFieldSets(written);
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
  shareFieldSets(o);
  return o;
}

/** Distinct FieldsV1 values kept for sharing, and the longest shared (as JSON text). */
const MAX_SHARED_FIELD_SETS = 4096;
const MAX_SHARED_FIELD_SET_TEXT = 4096;
const sharedFieldSets = new Map<string, unknown>();
/** The field set most recently found in (or added to) sharedFieldSets. */
let lastShared: unknown;

/**
 * Makes the managedFields entries' fieldsV1 of a decoded object the one instance kept for equal
 * values. Objects of one kind written by one client mostly own the same fields, so their field
 * sets are equal: a cache of 100,000 ConfigMaps held 100,000 copies of one small tree. Decoded
 * objects are not changed in place (writers change copies), so sharing is safe.
 */
function shareFieldSets(object: KubeObject): void {
  const entries = object.metadata?.managedFields;
  if (!Array.isArray(entries)) return;
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as { fieldsV1?: unknown };
    if (typeof e.fieldsV1 !== 'object' || e.fieldsV1 === null) continue;
    // Writes of one kind by one client come in runs with equal field sets: comparing with the
    // last one shared is ~5x cheaper than the JSON text that finds it in the map.
    if (lastShared !== undefined && sameJson(e.fieldsV1, lastShared)) {
      e.fieldsV1 = lastShared;
      continue;
    }
    const text = JSON.stringify(e.fieldsV1);
    if (text.length > MAX_SHARED_FIELD_SET_TEXT) continue;
    const shared = sharedFieldSets.get(text);
    if (shared !== undefined) e.fieldsV1 = lastShared = shared;
    else if (sharedFieldSets.size < MAX_SHARED_FIELD_SETS) sharedFieldSets.set(text, (lastShared = e.fieldsV1));
  }
}

/**
 * Whether JSON.stringify would give `a` and `b` the same text (keys in the same order). Not
 * jsonEqual (patch/json-equal.ts), which ignores member order: a shared field set takes the place
 * of the decoded one, so it must encode to the same text.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (let i = 0; i < aKeys.length; i++) {
    const key = aKeys[i]!;
    if (key !== bKeys[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
