/**
 * The Protobuf codec for the serialization layer's registry: request bodies and responses of
 * built-in types in the spec's envelope, and watch streams framed as upstream frames them. Custom
 * resources have no Protobuf form; decoding their bodies fails with a clear 400.
 */
import { joinedItem, type Codec, type DecodedBody, type ListEncoding, type StreamFraming } from '../codec.js';
import { ProtobufEncodeError } from './errors.js';
import { encodeProtobufList } from './list-encoder.js';
import { decodeProtobufObject, encodeProtobufObject } from './protobuf-object.js';
import { ProtobufSchema } from './schema.js';
import { frameProtobufWatchEvent } from './watch-event.js';

/** The spec's spelling first (named in error messages); upstream's spelling is accepted alike. */
export const PROTOBUF_MEDIA_TYPES = ['application/vnd.cluster.protobuf', 'application/vnd.kubernetes.protobuf'] as const;

export class ProtobufCodec implements Codec {
  readonly mediaTypes: readonly string[] = PROTOBUF_MEDIA_TYPES;
  readonly stream: StreamFraming = {
    mediaType: `${PROTOBUF_MEDIA_TYPES[0]};stream=watch`,
    frameEvent: frameProtobufWatchEvent,
  };

  readonly list: ListEncoding = {
    itemForm: 'object',
    encode: (envelope, items, options) => encodeProtobufList(envelope, items.map(joinedItem), this.schema, { chunkBytes: options.chunkBytes }),
  };

  /** `schema` compiles the descriptor on first use; share one among codecs. */
  constructor(readonly schema: ProtobufSchema = new ProtobufSchema()) {}

  /** Throws ProtobufDecodeError (a BodyDecodeError). Protobuf has no duplicate fields to report. */
  decode(body: Uint8Array): DecodedBody {
    return { value: decodeProtobufObject(body, this.schema).object, strictErrors: [] };
  }

  /** Encodes by the value's own `apiVersion` and `kind`. Throws ProtobufEncodeError. */
  encode(value: unknown): Buffer {
    const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const { apiVersion, kind } = object;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      throw new ProtobufEncodeError('an object encoded as Protobuf needs string apiVersion and kind');
    }
    return encodeProtobufObject(object, apiVersion, kind, this.schema);
  }
}
