/**
 * Whole Protobuf bodies <-> the JSON object model: the envelope, the message its apiVersion and
 * kind name, and the conversion of that message. The object model is what the JSON API would
 * carry for the same object (upstream's JSON of the same Go value), `kind` and `apiVersion` first.
 */
import type { DecodeContext } from './decode-context.js';
import { asDecodeError, readEnvelope, writeEnvelope } from './envelope.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import type { MessagePlan, ProtobufSchema } from './schema.js';
import { decodeMessage } from './wire-decode.js';
import { encodeMessage } from './wire-encode.js';

/** A decoded body: the envelope's type and the object (which repeats them as its first keys). */
export interface DecodedProtobufObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly object: Record<string, unknown>;
}

/** Content types an envelope may name for its `raw` bytes ('' means Protobuf). */
const PROTOBUF_CONTENT_TYPES = new Set(['', 'application/vnd.kubernetes.protobuf', 'application/vnd.cluster.protobuf']);

/** Go's rendering of the envelope's TypeMeta, as upstream's missing-kind errors quote it. */
function goTypeMeta(apiVersion: string, kind: string): string {
  return `runtime.TypeMeta{APIVersion:${JSON.stringify(apiVersion)}, Kind:${JSON.stringify(kind)}}`;
}

/** Decodes one message body with the given plan; reader failures become ProtobufDecodeError. */
function decodeBody(raw: Uint8Array, plan: MessagePlan, schema: ProtobufSchema, context: DecodeContext): unknown {
  const reader = schema.wire.Reader.create(raw);
  try {
    return decodeMessage(reader, reader.len, plan, context);
  } catch (error) {
    throw asDecodeError(error);
  }
}

function decodeEnveloped(bytes: Uint8Array, schema: ProtobufSchema, context: DecodeContext): DecodedProtobufObject {
  const envelope = readEnvelope(bytes, schema.wire);
  const { apiVersion, kind } = envelope;
  if (envelope.contentEncoding !== '') {
    throw new ProtobufDecodeError(`unsupported contentEncoding ${JSON.stringify(envelope.contentEncoding)} in the Protobuf envelope`);
  }
  if (!PROTOBUF_CONTENT_TYPES.has(envelope.contentType)) {
    throw new ProtobufDecodeError(`unsupported contentType ${JSON.stringify(envelope.contentType)} in the Protobuf envelope`);
  }
  if (kind === '') throw new ProtobufDecodeError(`Object 'Kind' is missing in '${goTypeMeta(apiVersion, kind)}'`);
  if (apiVersion === '') throw new ProtobufDecodeError(`Object 'apiVersion' is missing in '${goTypeMeta(apiVersion, kind)}'`);
  const plan = schema.messageForKind(apiVersion, kind);
  if (plan === undefined) {
    const why = schema.knowsApiVersion(apiVersion) ? '' : ' (Protobuf is available for built-in types only)';
    throw new ProtobufDecodeError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}${why}`);
  }
  const body = decodeBody(envelope.raw, plan, schema, context) as Record<string, unknown>;
  return { apiVersion, kind, object: { kind, apiVersion, ...body } };
}

/** A fresh context; RawExtensions holding whole Protobuf objects decode through it. */
function newContext(schema: ProtobufSchema): DecodeContext {
  const context: DecodeContext = {
    depth: 0,
    decodeEmbedded: (raw) => decodeEnveloped(raw, schema, context).object,
  };
  return context;
}

/**
 * Decodes a Protobuf body (prefix, envelope, message) to the JSON object model. Does not modify
 * `bytes`; the result shares no memory with it. Throws ProtobufDecodeError (a BodyDecodeError:
 * answer 400) for a missing prefix, malformed or truncated bytes, a missing kind or apiVersion, and
 * a kind with no Protobuf message (custom resources, unknown kinds).
 */
export function decodeProtobufObject(bytes: Uint8Array, schema: ProtobufSchema): DecodedProtobufObject {
  return decodeEnveloped(bytes, schema, newContext(schema));
}

/**
 * Decodes a bare message, without prefix or envelope (as in a watch frame), of the named type
 * (a full Protobuf name). Throws ProtobufDecodeError, and Error for a name the schema lacks.
 */
export function decodeBareMessage(bytes: Uint8Array, messageName: string, schema: ProtobufSchema): unknown {
  const plan = schema.message(messageName);
  if (plan === undefined) throw new Error(`no Protobuf message ${messageName}`);
  return decodeBody(bytes, plan, schema, newContext(schema));
}

/**
 * Encodes an object of the JSON model as a Protobuf body, byte for byte as upstream would.
 * `apiVersion` and `kind` choose the message; the object's own `apiVersion`/`kind` keys are not
 * read. Does not modify `object`. Throws ProtobufEncodeError (a server bug: answer 500) for a kind
 * without a Protobuf message and for values that do not fit the message (its path says where).
 */
export function encodeProtobufObject(object: unknown, apiVersion: string, kind: string, schema: ProtobufSchema): Buffer {
  const plan = schema.messageForKind(apiVersion, kind);
  if (plan === undefined) {
    throw new ProtobufEncodeError(`no Protobuf message for kind ${JSON.stringify(kind)} of version ${JSON.stringify(apiVersion)}`);
  }
  const writer = schema.wire.Writer.create();
  writeEnvelope(writer, apiVersion, kind, (w) => encodeMessage(w, plan, object));
  const bytes = writer.finish();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
