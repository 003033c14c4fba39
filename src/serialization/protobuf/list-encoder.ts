/**
 * Streams a Protobuf list (`ConfigMapList`, ...) from items already encoded as whole Protobuf
 * objects (as the watch cache holds them), without copying them into one buffer. Each item's
 * message is taken out of its envelope as is, so the output is the bytes encodeProtobufObject
 * gives for the whole list. Protobuf puts the list's length before its items, so every item is
 * read before the first byte is yielded; only references are kept, no copies.
 */
import { inChunks } from '../chunker.js';
import { readEnvelope } from './envelope.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import type { ProtobufSchema } from './schema.js';
import { WireType } from './schema.js';
import { varintLength, withVarint } from './varint.js';
import { writeField } from './wire-encode.js';

/** Bytes per chunk handed to the caller, unless one item alone is larger. */
export const PROTOBUF_LIST_CHUNK_BYTES = 64 * 1024;

/** The list's own fields; its items come separately. */
export interface ProtobufListHead {
  readonly apiVersion: string;
  readonly kind: string;
  /** The ListMeta (resourceVersion, continue, remainingItemCount). */
  readonly metadata?: unknown;
}

/**
 * Yields the list's Protobuf body in chunks. `items` are whole Protobuf objects (prefix and
 * envelope); their bytes are not modified. Throws ProtobufEncodeError for a kind that is not a
 * list with a Protobuf message, metadata that does not fit ListMeta, and an item that is not a
 * Protobuf object.
 */
export async function* encodeProtobufList(
  head: ProtobufListHead,
  items: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  schema: ProtobufSchema,
  options: { readonly chunkBytes?: number } = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const plan = schema.messageForKind(head.apiVersion, head.kind);
  const metaField = plan?.byName.get('metadata');
  const itemsField = plan?.byName.get('items');
  if (!plan || !metaField || !itemsField?.repeated || itemsField.message === undefined || itemsField.number > 15) {
    throw new ProtobufEncodeError(`no Protobuf list message for kind ${JSON.stringify(head.kind)} of version ${JSON.stringify(head.apiVersion)}`);
  }
  const raws: Uint8Array[] = [];
  const take = (item: Uint8Array): void => {
    try {
      raws.push(readEnvelope(item, schema.wire).raw);
    } catch (error) {
      if (error instanceof ProtobufDecodeError) throw new ProtobufEncodeError(`item ${raws.length} is not a Protobuf object: ${error.message}`);
      throw error;
    }
  };
  // As in the JSON list encoder: `for await` over an array (what the server passes) would cost a
  // promise and a microtask turn per item.
  if (Symbol.asyncIterator in items) for await (const item of items) take(item);
  else for (const item of items) take(item);

  const writer = schema.wire.Writer.create();
  try {
    writeField(writer, metaField, head.metadata);
  } catch (error) {
    throw error instanceof ProtobufEncodeError ? error.within('metadata') : error;
  }
  const meta = writer.finish();
  const itemTag = (itemsField.number << 3) | WireType.lengthDelimited;
  const bodyLength = raws.reduce((sum, raw) => sum + 1 + varintLength(raw.length) + raw.length, meta.length);

  const typeMeta = schema.wire.Writer.create().uint32(0x0a).string(head.apiVersion).uint32(0x12).string(head.kind).finish();
  function* pieces(): Generator<Uint8Array> {
    yield Uint8Array.of(0x6b, 0x38, 0x73, 0x00); // the prefix, `k8s\0`
    yield withVarint([0x0a], typeMeta.length);
    yield typeMeta;
    yield withVarint([0x12], bodyLength);
    yield meta;
    for (const raw of raws) {
      yield withVarint([itemTag], raw.length);
      yield raw;
    }
    // Empty contentEncoding and contentType, as upstream writes them.
    yield Uint8Array.of(0x1a, 0x00, 0x22, 0x00);
  }
  yield* inChunks(pieces(), options.chunkBytes ?? PROTOBUF_LIST_CHUNK_BYTES);
}
