/**
 * Protobuf watch streams, as upstream frames them: each event is a 4-byte big-endian length and a
 * bare `meta.v1.WatchEvent` message (no prefix, no envelope: the stream's media type says what it
 * is) whose `object` RawExtension holds the object's complete Protobuf body, prefix and envelope
 * included. The object bytes come from the watch cache, encoded once for every watcher.
 */
import type { WatchEventType } from '../watch-frame.js';
import { ProtobufDecodeError } from './errors.js';
import { decodeBareMessage } from './protobuf-object.js';
import type { ProtobufSchema } from './schema.js';
import { varintLength, writeVarint } from './varint.js';

const WATCH_EVENT = 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent';

/**
 * One framed event around an object already encoded by encodeProtobufObject. Does not modify
 * `object`.
 */
export function frameProtobufWatchEvent(type: WatchEventType, object: Uint8Array): Buffer {
  const typeBytes = Buffer.from(type, 'latin1');
  // RawExtension { 1: raw }
  const extensionLength = 1 + varintLength(object.length) + object.length;
  // WatchEvent { 1: type, 2: object }
  const eventLength = 1 + varintLength(typeBytes.length) + typeBytes.length + 1 + varintLength(extensionLength) + extensionLength;
  const out = Buffer.allocUnsafe(4 + eventLength);
  out.writeUInt32BE(eventLength, 0);
  let offset = 4;
  out[offset++] = 0x0a;
  offset = writeVarint(out, offset, typeBytes.length);
  offset += typeBytes.copy(out, offset);
  out[offset++] = 0x12;
  offset = writeVarint(out, offset, extensionLength);
  out[offset++] = 0x0a;
  offset = writeVarint(out, offset, object.length);
  out.set(object, offset);
  return out;
}

/** One event of a Protobuf watch stream, its object decoded to the JSON model. */
export interface DecodedWatchEvent {
  readonly type: string;
  readonly object: Record<string, unknown>;
}

/**
 * Reads the first framed event of `stream` (for clients and tests of the server): the event and
 * the bytes after it, or undefined when the stream does not yet hold a whole frame. Throws
 * ProtobufDecodeError for a frame that is not a watch event.
 */
export function readProtobufWatchEvent(stream: Uint8Array, schema: ProtobufSchema): { event: DecodedWatchEvent; rest: Uint8Array } | undefined {
  if (stream.length < 4) return undefined;
  const length = new DataView(stream.buffer, stream.byteOffset, 4).getUint32(0);
  if (stream.length < 4 + length) return undefined;
  const event = decodeBareMessage(stream.subarray(4, 4 + length), WATCH_EVENT, schema) as { type: string; object: unknown };
  if (typeof event.object !== 'object' || event.object === null || Array.isArray(event.object)) {
    throw new ProtobufDecodeError('proto: watch event without an object');
  }
  return { event: { type: event.type, object: event.object as Record<string, unknown> }, rest: stream.subarray(4 + length) };
}
