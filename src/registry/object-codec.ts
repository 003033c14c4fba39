/**
 * How objects are stored: JSON bytes without metadata.resourceVersion (the revision is the
 * storage's, injected on read as upstream does). Protobuf storage comes with the Protobuf codec.
 */
import type { KeyValue } from '../storage/storage.js';
import { StorageError } from '../storage/errors.js';
import { escapeLikeGo } from '../serialization/json-encode.js';
import { canonicalOrder, type KubeObject } from './object.js';

const decoder = new TextDecoder();

/**
 * The object each value encodeForStorage made was made from, until those bytes are decoded. The
 * embedded store hands the watch cache the very bytes it was given to write, so the cache takes
 * the written object instead of parsing its JSON again (a create's largest cost after TLS). The
 * writer gives the object up with the write: nothing changes it afterwards.
 */
const encodedFrom = new WeakMap<Uint8Array, KubeObject>();

/**
 * An object's stored bytes, and where its resourceVersion goes back in to make its JSON response
 * (see {@link jsonAtRevision}).
 */
export interface StoredEncoding {
  readonly bytes: Uint8Array;
  /** Byte offset in `bytes` where metadata's resourceVersion member belongs; -1 when unknown. */
  readonly revisionAt: number;
  /** Whether a comma goes before the member (it is metadata's last), after it, or neither (its only). */
  readonly revisionComma: 'before' | 'after' | 'none';
}

const REVISION_MARK = '"resourceVersion":""';

/**
 * Bytes to store for an object: its JSON as a response carries it (upstream's member order, Go's
 * escaping) without metadata.resourceVersion, so that the response to the write is these bytes
 * with the revision put back, not a second encoding of the same object.
 *
 * The encoding marks the revision's place with an empty resourceVersion and cuts it out. The
 * first `"resourceVersion":` of the text is metadata's: only kind and apiVersion (strings) and
 * metadata's members before it (strings) come first, and inside a JSON string every quote is
 * escaped, so the marker cannot match there.
 *
 * Buffer.from, not TextEncoder: a value under 4 KiB then takes a slice of Buffer's shared pool
 * instead of a backing store of its own, and making a backing store cost 4-5 µs per value in Node
 * 20, four times the whole encoding. The bytes live only until the write's event is decoded (the
 * embedded store copies them into its batch, etcd into its request; no cache keeps them), so a
 * slice cannot keep a pool slab alive for long.
 */
export function encodeForStorage(object: KubeObject): StoredEncoding {
  const marked = escapeLikeGo(JSON.stringify(canonicalOrder(object, '')));
  const whole = Buffer.from(marked, 'utf8');
  const mark = marked.indexOf(REVISION_MARK);
  if (mark < 0) return remember({ bytes: whole, revisionAt: -1, revisionComma: 'none' }, object);
  // Character and byte offsets agree unless the text before the mark has non-ASCII characters.
  let from = whole.length === marked.length ? mark : Buffer.byteLength(marked.slice(0, mark), 'utf8');
  let to = from + REVISION_MARK.length;
  let revisionComma: StoredEncoding['revisionComma'] = 'none';
  if (whole[to] === COMMA) {
    to++;
    revisionComma = 'after';
  } else if (whole[from - 1] === COMMA) {
    from--;
    revisionComma = 'before';
  }
  // The mark is cut out of the bytes in place: cheaper than cutting the text and encoding it.
  whole.copyWithin(from, to);
  return remember({ bytes: whole.subarray(0, whole.length - (to - from)), revisionAt: from, revisionComma }, object);
}

function remember(encoding: StoredEncoding, object: KubeObject): StoredEncoding {
  encodedFrom.set(encoding.bytes, object);
  return encoding;
}

const COMMA = 0x2c;

/**
 * The compact JSON response (with its newline) of the object stored as `encoding` at
 * `resourceVersion`: the stored bytes with the resourceVersion member put back. Undefined when the
 * encoding's place for it is unknown or the version is not a revision.
 */
export function jsonAtRevision(encoding: StoredEncoding, resourceVersion: string): Buffer | undefined {
  const { bytes, revisionAt: at } = encoding;
  if (at < 0 || !/^[0-9]+$/.test(resourceVersion)) return undefined;
  const comma = encoding.revisionComma;
  const member = `${comma === 'before' ? ',' : ''}"resourceVersion":"${resourceVersion}"${comma === 'after' ? ',' : ''}`;
  const json = Buffer.allocUnsafe(bytes.length + member.length + 1);
  json.set(bytes.subarray(0, at), 0);
  json.write(member, at, 'latin1');
  json.set(bytes.subarray(at), at + member.length);
  json[json.length - 1] = 0x0a;
  return json;
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
