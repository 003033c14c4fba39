/**
 * Codecs: one per media type the server reads and writes, held in a registry in the server's order
 * of preference (the first is the default for requests without Content-Type or Accept). JSON and
 * YAML work on the generic object model; Protobuf and CBOR join later as further codecs, which is
 * why decoding returns strictness facts rather than throwing and why stream framing is optional.
 */
import type { WatchEventType } from './watch-frame.js';

/** What a codec read from a request body. */
export interface DecodedBody {
  /** The object model: plain objects, arrays, strings, numbers, booleans, null. */
  readonly value: unknown;
  /**
   * Strict-decoding messages (duplicate fields) worded as upstream words them, for the
   * fieldValidation level to ignore, warn about or reject.
   */
  readonly strictErrors: readonly string[];
}

/**
 * A body the codec cannot read. The message is upstream's decoder error text, e.g.
 * `couldn't get version/kind; json parse error: unexpected end of JSON input`.
 */
export class BodyDecodeError extends Error {
  override readonly name = 'BodyDecodeError';
}

export interface EncodeOptions {
  /** Indented output for humans, where the encoding has such a form (JSON). */
  readonly pretty?: boolean;
}

/** How a codec frames watch events on a stream. */
export interface StreamFraming {
  /** The media type clients name to ask for the stream, e.g. `application/json;stream=watch`. */
  readonly mediaType: string;
  /** One framed event around an object already encoded with this codec. */
  frameEvent(type: WatchEventType, object: Uint8Array): Buffer;
}

/** One list item's bytes: whole, or as pieces that follow one another (views of other encodings). */
export type ListItemBytes = Uint8Array | readonly Uint8Array[];

/** The bytes of an item given in pieces, joined (copied only when there are several). */
export function joinedItem(item: ListItemBytes): Uint8Array {
  if (!Array.isArray(item)) return item as Uint8Array;
  return item.length === 1 ? item[0]! : Buffer.concat(item);
}

/** An item's length in bytes. */
export function itemLength(item: ListItemBytes): number {
  if (!Array.isArray(item)) return (item as Uint8Array).length;
  let n = 0;
  for (const piece of item) n += piece.length;
  return n;
}

/** How a codec writes a list from its items' encodings, without building the list whole. */
export interface ListEncoding {
  /**
   * What each item's bytes must be: `item` an object without kind and apiVersion encoded with this
   * codec (how JSON lists hold their items), `object` the whole object encoded (Protobuf).
   */
  readonly itemForm: 'item' | 'object';
  /** The list's bytes in chunks of about `chunkBytes`: `envelope`'s fields, then `items`. */
  encode(
    envelope: { readonly kind: string; readonly apiVersion: string; readonly metadata: unknown },
    items: readonly ListItemBytes[],
    options: { readonly pretty?: boolean; readonly chunkBytes: number },
  ): AsyncIterable<Uint8Array>;
}

export interface Codec {
  /** Media types this codec answers to, as `type/subtype`; the first is its canonical name. */
  readonly mediaTypes: readonly string[];
  /** Throws BodyDecodeError for bytes that are not in this encoding. */
  decode(body: Uint8Array): DecodedBody;
  /** Encodes the object model. Does not modify `value`. */
  encode(value: unknown, options?: EncodeOptions): Buffer;
  /** Present when watch events can be streamed in this encoding. */
  readonly stream?: StreamFraming;
  /** Present when lists can be written item by item; without it a list is encoded whole. */
  readonly list?: ListEncoding;
}

/** The codecs a server (or one endpoint) offers, in order of preference. */
export class CodecRegistry {
  private readonly byType = new Map<string, Codec>();

  constructor(readonly codecs: readonly Codec[]) {
    if (codecs.length === 0) throw new Error('a codec registry needs at least one codec');
    for (const codec of codecs) for (const type of codec.mediaTypes) this.byType.set(type, codec);
  }

  /** The default codec: the first registered. */
  get preferred(): Codec {
    return this.codecs[0]!;
  }

  /** The codec for a lowercase `type/subtype`, if any. */
  lookup(mediaType: string): Codec | undefined {
    return this.byType.get(mediaType);
  }

  /** Canonical media types, for `only the following media types are accepted: ...`. */
  mediaTypes(): string[] {
    return this.codecs.map((c) => c.mediaTypes[0]!);
  }

  /** Streaming media types, for the same message about watches. */
  streamMediaTypes(): string[] {
    return this.codecs.flatMap((c) => (c.stream ? [c.stream.mediaType] : []));
  }
}
