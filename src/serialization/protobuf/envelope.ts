/**
 * The Protobuf envelope of the spec: the 4-byte prefix `k8s\0` and a `runtime.Unknown` message
 * (1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType) whose `raw` holds
 * the object's message. Read and written by hand: four fields do not need the schema.
 */
import { ProtobufDecodeError } from './errors.js';
import { WireType } from './schema.js';
import type { WireRuntime, Writer } from './wire-runtime.js';

/** The decoded envelope; `raw` shares memory with the input. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/** Whether the bytes start with the Protobuf prefix, `k8s` and a zero byte. */
export function hasProtobufPrefix(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

/**
 * Reads the prefix and the Unknown message. Throws ProtobufDecodeError, worded as upstream's
 * serializer words it, for empty input, a missing prefix and malformed bytes.
 */
export function readEnvelope(bytes: Uint8Array, wire: WireRuntime): Envelope {
  if (bytes.length === 0) throw new ProtobufDecodeError('empty data');
  if (!hasProtobufPrefix(bytes)) {
    throw new ProtobufDecodeError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (bytes.length === 4) throw new ProtobufDecodeError('empty body');
  const reader = wire.Reader.create(bytes);
  reader.pos = 4;
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array(0);
  let contentEncoding = '';
  let contentType = '';
  try {
    while (reader.pos < reader.len) {
      const key = reader.uint32();
      const number = key >>> 3;
      if (number >= 1 && number <= 4 && (key & 7) !== WireType.lengthDelimited) {
        throw new ProtobufDecodeError(`proto: wrong wireType = ${key & 7} for field ${number} of runtime.Unknown`);
      }
      if (number === 1) {
        const end = reader.uint32() + reader.pos;
        if (end > reader.len) throw unexpectedEnd();
        while (reader.pos < end) {
          const inner = reader.uint32();
          if (inner === 0x0a) apiVersion = reader.string();
          else if (inner === 0x12) kind = reader.string();
          else reader.skipType(inner & 7);
        }
        if (reader.pos !== end) throw unexpectedEnd();
      } else if (number === 2) raw = reader.bytes();
      else if (number === 3) contentEncoding = reader.string();
      else if (number === 4) contentType = reader.string();
      else reader.skipType(key & 7);
    }
  } catch (error) {
    throw asDecodeError(error);
  }
  return { apiVersion, kind, raw, contentEncoding, contentType };
}

/** The prefix read as a little-endian fixed32, so a protobufjs Writer can emit it. */
const PREFIX_FIXED32 = 0x0073386b;

/**
 * Writes prefix and Unknown, with `writeRaw` writing the object's message in place (no copy),
 * byte for byte as upstream's serializer does (empty contentEncoding and contentType included).
 */
export function writeEnvelope(writer: Writer, apiVersion: string, kind: string, writeRaw: (writer: Writer) => void): void {
  writer.fixed32(PREFIX_FIXED32);
  writer.uint32(0x0a).fork().uint32(0x0a).string(apiVersion).uint32(0x12).string(kind).ldelim();
  writer.uint32(0x12).fork();
  writeRaw(writer);
  writer.ldelim();
  writer.uint32(0x1a).string('').uint32(0x22).string('');
}

/** Error for input that ends inside a field. */
export function unexpectedEnd(where?: string): ProtobufDecodeError {
  return new ProtobufDecodeError(where ? `proto: unexpected EOF in ${where}` : 'proto: unexpected EOF');
}

/**
 * Our error as is; protobufjs's reader errors (reading past the end, bad wire types) as a decode
 * error; anything else (a bug) unchanged.
 */
export function asDecodeError(error: unknown): unknown {
  if (error instanceof ProtobufDecodeError) return error;
  if (error instanceof RangeError && /index out of range/.test(error.message)) return unexpectedEnd();
  if (error instanceof Error && /invalid wire type|maximum nesting depth/.test(error.message)) {
    return new ProtobufDecodeError(`proto: ${error.message}`);
  }
  return error;
}
