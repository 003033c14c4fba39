/**
 * Converters for the messages whose Go types write their own JSON (MarshalJSON): on the wire they
 * are ordinary messages, in the JSON model they are strings, numbers or embedded documents.
 *
 * A converter sees a record of the message's fields by Protobuf name: on decode the fields present
 * on the wire (nested messages already converted to JSON), on encode the fields to write (nested
 * messages as JSON, which the encoder converts). Absent means not on the wire, which is how each Go
 * type tells its zero value apart.
 */
import type { SpecialKind } from './descriptor.js';
import type { DecodeContext } from './decode-context.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { hasProtobufPrefix } from './envelope.js';
import { formatMicroTime, formatTime, parseRfc3339 } from './rfc3339.js';

/** Fields of one special message by Protobuf name. */
export type SpecialRecord = Record<string, unknown>;

export interface SpecialConverter {
  /** The JSON value of a decoded message. Throws ProtobufDecodeError. */
  toJson(record: SpecialRecord, context: DecodeContext): unknown;
  /** The fields to write for a JSON value (null or undefined: Go's zero value). Throws ProtobufEncodeError. */
  fromJson(value: unknown): SpecialRecord;
}

/** `time.Time{}` as Unix seconds: a Time message carrying it is still the zero time. */
const GO_ZERO_TIME_SECONDS = -62135596800;

const textEncoder = new TextEncoder();

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function isEmpty(record: SpecialRecord): boolean {
  for (const _ in record) return false;
  return true;
}

function jsonBytes(value: unknown): Uint8Array {
  return textEncoder.encode(JSON.stringify(value));
}

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    throw new ProtobufDecodeError(`failed to parse ${what} bytes as JSON: ${(error as Error).message}`);
  }
}

const time: SpecialConverter = {
  toJson(record) {
    // Upstream reads an empty message as the zero time and ignores nanos.
    if (isEmpty(record)) return null;
    const seconds = (record['seconds'] as number | undefined) ?? 0;
    if (seconds === GO_ZERO_TIME_SECONDS) return null;
    const text = formatTime(seconds);
    if (text === undefined) throw new ProtobufDecodeError(`proto: time out of range: ${seconds} seconds`);
    return text;
  },
  fromJson(value) {
    if (value === null || value === undefined) return {};
    const parsed = typeof value === 'string' ? parseRfc3339(value) : undefined;
    if (!parsed) throw new ProtobufEncodeError(`expected an RFC 3339 time, got ${describe(value)}`);
    return { seconds: parsed.seconds, nanos: 0 };
  },
};

const microTime: SpecialConverter = {
  toJson(record) {
    if (isEmpty(record)) return null;
    const seconds = (record['seconds'] as number | undefined) ?? 0;
    const nanos = (record['nanos'] as number | undefined) ?? 0;
    if (seconds === GO_ZERO_TIME_SECONDS && nanos === 0) return null;
    const text = formatMicroTime(seconds, nanos);
    if (text === undefined) throw new ProtobufDecodeError(`proto: time out of range: ${seconds} seconds`);
    return text;
  },
  fromJson(value) {
    if (value === null || value === undefined) return {};
    const parsed = typeof value === 'string' ? parseRfc3339(value) : undefined;
    if (!parsed) throw new ProtobufEncodeError(`expected an RFC 3339 time, got ${describe(value)}`);
    return { seconds: parsed.seconds, nanos: parsed.nanos - (parsed.nanos % 1000) };
  },
};

/** A message holding JSON text in one bytes field (FieldsV1, apiextensions JSON). */
function embeddedJson(field: string, what: string): SpecialConverter {
  return {
    toJson(record) {
      const raw = record[field] as Uint8Array | undefined;
      return raw === undefined || raw.length === 0 ? null : parseJson(raw, what);
    },
    fromJson(value) {
      return value === null || value === undefined ? {} : { [field]: jsonBytes(value) };
    },
  };
}

/** The first bytes JSON text can start with, as upstream guesses a RawExtension's content type. */
function looksLikeJson(byte: number): boolean {
  return '\t\r\n {["-0123456789tfn'.includes(String.fromCharCode(byte));
}

const rawExtension: SpecialConverter = {
  toJson(record, context) {
    const raw = record['raw'] as Uint8Array | undefined;
    if (raw === undefined) return null;
    // A watch event (and anything else upstream encodes as Protobuf) embeds a whole envelope.
    if (hasProtobufPrefix(raw)) return context.decodeEmbedded(raw);
    if (raw.length > 0 && looksLikeJson(raw[0]!)) return parseJson(raw, 'RawExtension');
    throw new ProtobufDecodeError('cannot convert RawExtension with unrecognized content type to unstructured');
  },
  fromJson(value) {
    return value === null || value === undefined ? {} : { raw: jsonBytes(value) };
  },
};

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const intOrString: SpecialConverter = {
  toJson(record) {
    const type = (record['type'] as number | undefined) ?? 0;
    if (type === 0) return (record['intVal'] as number | undefined) ?? 0;
    if (type === 1) return (record['strVal'] as string | undefined) ?? '';
    throw new ProtobufDecodeError(`proto: impossible IntOrString.Type ${type}`);
  },
  fromJson(value) {
    if (value === null || value === undefined) return { type: 0, intVal: 0, strVal: '' };
    if (typeof value === 'string') return { type: 1, intVal: 0, strVal: value };
    if (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) {
      return { type: 0, intVal: value, strVal: '' };
    }
    throw new ProtobufEncodeError(`expected an int32 or a string, got ${describe(value)}`);
  },
};

/**
 * Quantities pass through as written: no canonical form and no syntax check here, so the registry
 * validates exactly the string a JSON request would have carried.
 */
const quantity: SpecialConverter = {
  toJson(record) {
    return (record['string'] as string | undefined) ?? '0';
  },
  fromJson(value) {
    if (value === null || value === undefined) return { string: '0' };
    if (typeof value === 'string') return { string: value };
    if (typeof value === 'number' && Number.isFinite(value)) return { string: String(value) };
    throw new ProtobufEncodeError(`expected a quantity string, got ${describe(value)}`);
  },
};

const schemaOrBool: SpecialConverter = {
  toJson(record) {
    return record['schema'] ?? (record['allows'] as boolean | undefined) ?? false;
  },
  fromJson(value) {
    if (value === null || value === undefined || value === false) return { allows: false };
    if (value === true) return { allows: true };
    if (typeof value === 'object' && !Array.isArray(value)) return { allows: true, schema: value };
    throw new ProtobufEncodeError(`expected a boolean or a schema, got ${describe(value)}`);
  },
};

/** A schema or a non-empty array (of schemas, or of strings): the array wins when both are set. */
function schemaOrArray(arrayField: string): SpecialConverter {
  return {
    toJson(record) {
      const items = record[arrayField] as unknown[] | undefined;
      return items !== undefined && items.length > 0 ? items : (record['schema'] ?? null);
    },
    fromJson(value) {
      if (value === null || value === undefined) return {};
      if (Array.isArray(value)) return { [arrayField]: value };
      if (typeof value === 'object') return { schema: value };
      throw new ProtobufEncodeError(`expected a schema or an array, got ${describe(value)}`);
    },
  };
}

/** Every special message kind's converter. */
export const SPECIAL_CONVERTERS: Readonly<Record<SpecialKind, SpecialConverter>> = {
  time,
  microTime,
  fieldsV1: embeddedJson('Raw', 'FieldsV1'),
  rawExtension,
  intOrString,
  quantity,
  json: embeddedJson('raw', 'JSON'),
  schemaOrBool,
  schemaOrArray: schemaOrArray('jSONSchemas'),
  schemaOrStringArray: schemaOrArray('property'),
};
