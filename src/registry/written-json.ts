/**
 * The stored encodings of the objects written in this turn of the event loop, so that the response
 * to a write is its stored bytes with the resourceVersion put back (object-codec.ts) instead of a
 * second encoding of the same object: JSON.stringify of the response was a tenth of a create's
 * own work.
 *
 * A write's response is written in the microtasks that follow its commit, in the same turn; one
 * written later (after a wait for something else) or in another form encodes the object as
 * before. Kept for the turn only, so that no encoding outlives it: objects written by controllers
 * go on living in the watch cache, and their bytes must not live with them.
 */
import { jsonAtRevision, type StoredEncoding } from './object-codec.js';
import type { KubeObject } from './object.js';

/** Swapped for a fresh map each turn rather than cleared (see server/end-batch.ts on why). */
let writtenThisTurn = new Map<KubeObject, StoredEncoding>();

/**
 * Notes that `object` (with its resourceVersion set, and given up by its writer: nothing changes
 * it any more) was stored as `encoding`.
 */
export function noteWritten(object: KubeObject, encoding: StoredEncoding): void {
  if (writtenThisTurn.size === 0) setImmediate(forgetWritten);
  writtenThisTurn.set(object, encoding);
}

function forgetWritten(): void {
  writtenThisTurn = new Map();
}

/**
 * The compact JSON (with its newline) of an object written this turn, made from its stored bytes;
 * undefined for any other object.
 */
export function writtenJson(object: KubeObject): Buffer | undefined {
  const encoding = writtenThisTurn.get(object);
  const resourceVersion = object.metadata?.resourceVersion;
  if (encoding === undefined || typeof resourceVersion !== 'string') return undefined;
  return jsonAtRevision(encoding, resourceVersion);
}
