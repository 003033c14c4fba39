/**
 * How objects are stored: JSON bytes without metadata.resourceVersion (the revision is the
 * storage's, injected on read as upstream does). Protobuf storage comes with the Protobuf codec.
 */
import type { KeyValue } from '../storage/storage.js';
import { StorageError } from '../storage/errors.js';
import type { KubeObject } from './object.js';
import { canonicalJsonOf, type CanonicalJson } from './canonical-json.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The object each value encodeForStorage made was made from, until those bytes are decoded. The
 * embedded store hands the watch cache the very bytes it was given to write, so the cache takes
 * the written object instead of parsing its JSON again (a create's largest cost after TLS). The
 * writer gives the object up with the write: nothing changes it afterwards.
 */
const encodedFrom = new WeakMap<Uint8Array, KubeObject>();

/**
 * The canonical JSON of the objects written last, by object, for their responses and watch events
 * (see writtenJsonText). Bounded: only a write's own response and its first fan-out need it, and
 * kept for every cached object the texts would double the cache's memory.
 */
const RECENT_TEXTS = 1024;
/** Oldest first (a Map keeps insertion order); a WeakMap's insert cost a write ~2 µs here. */
const writtenJson = new Map<KubeObject, CanonicalJson>();

/** Bytes to store for an object (its resourceVersion is dropped). */
export function encodeForStorage(object: KubeObject): Uint8Array {
  const json = canonicalJsonOf(object);
  let bytes: Uint8Array;
  if (json !== undefined) {
    bytes = encoder.encode(json.withoutResourceVersion());
    rememberText(object, json);
  } else if (object.metadata?.resourceVersion === undefined) {
    bytes = encoder.encode(JSON.stringify(object));
  } else {
    const { resourceVersion: _dropped, ...rest } = object.metadata;
    bytes = encoder.encode(JSON.stringify({ ...object, metadata: rest }));
  }
  encodedFrom.set(bytes, object);
  return bytes;
}

function rememberText(object: KubeObject, json: CanonicalJson): void {
  writtenJson.delete(object);
  writtenJson.set(object, json);
  if (writtenJson.size > RECENT_TEXTS) writtenJson.delete(writtenJson.keys().next().value!);
}

/**
 * JSON.stringify(canonicalOrder(object)) for an object written lately, from the text its write
 * stored, with the resourceVersion it has now; undefined for others. Like every stored object it
 * must not have changed since, except for the resourceVersion the write gave it.
 */
export function writtenJsonText(object: KubeObject): string | undefined {
  const revision = object.metadata?.resourceVersion;
  if (typeof revision !== 'string') return undefined;
  return writtenJson.get(object)?.withResourceVersion(revision);
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
    const text = JSON.stringify(e.fieldsV1);
    if (text.length > MAX_SHARED_FIELD_SET_TEXT) continue;
    const shared = sharedFieldSets.get(text);
    if (shared !== undefined) e.fieldsV1 = shared;
    else if (sharedFieldSets.size < MAX_SHARED_FIELD_SETS) sharedFieldSets.set(text, e.fieldsV1);
  }
}
