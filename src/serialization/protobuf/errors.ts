/**
 * Failures of the Protobuf codec. Decoding failures are request errors (a client sent bytes that
 * are not a valid object) and extend the serialization layer's BodyDecodeError, so the request path
 * answers them with 400 BadRequest like any unreadable body. Encoding failures mean the server's
 * own object does not fit the type's schema: a server bug, answered with 500.
 */
import { BodyDecodeError } from '../codec.js';

/** Bytes that are not a Protobuf-encoded object the server knows. */
export class ProtobufDecodeError extends BodyDecodeError {}

/** An object the Protobuf encoder cannot represent; `path` names the offending field. */
export class ProtobufEncodeError extends Error {
  override readonly name = 'ProtobufEncodeError';

  constructor(
    readonly detail: string,
    readonly path: readonly string[] = [],
  ) {
    super(path.length > 0 ? `${path.join('.')}: ${detail}` : detail);
  }

  /** The same error, one field further out. */
  within(field: string): ProtobufEncodeError {
    return new ProtobufEncodeError(this.detail, [field, ...this.path]);
  }
}
