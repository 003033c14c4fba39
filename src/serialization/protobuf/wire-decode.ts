/**
 * Protobuf message -> JSON model, the way upstream gets there: unmarshal into the Go struct, then
 * marshal that as JSON. Upstream's Go structs put every non-pointer field on the wire, so a zero
 * value on the wire says nothing by itself; the Go facts in the plan decide what JSON shows:
 *
 *   non-pointer scalar      value or zero; left out when zero and `omitempty`
 *   pointer scalar          absent -> nil (left out, or null without omitempty); present -> value, even 0
 *   slice, map, []byte      absent -> nil (left out, or null); present -> value
 *   non-pointer struct      always shown: absent -> the zero struct, e.g. `status: {}`
 *   pointer struct          absent -> nil; present -> the struct, even `{}`
 *   inline struct           its fields appear in the enclosing object
 *   hand-marshalled types   special-types.ts (Time -> string or null, IntOrString -> number/string, ...)
 */
import type { DecodeContext } from './decode-context.js';
import { MAX_DEPTH } from './decode-context.js';
import type { ScalarType } from './descriptor.js';
import { ProtobufDecodeError } from './errors.js';
import { unexpectedEnd } from './envelope.js';
import type { FieldPlan, MessagePlan } from './schema.js';
import { WireType, wireTypeOf } from './schema.js';
import { SPECIAL_CONVERTERS } from './special-types.js';
import type { Reader } from './wire-runtime.js';

/** Marks a field that JSON leaves out. */
const OMIT = Symbol('omit');

function readScalar(reader: Reader, type: ScalarType): unknown {
  switch (type) {
    case 'string':
      return reader.string();
    case 'int32':
      return reader.int32();
    case 'int64': {
      const value = reader.int64() as unknown as number | { toNumber(): number };
      return typeof value === 'number' ? value : value.toNumber();
    }
    case 'bool':
      return reader.bool();
    case 'double':
      return reader.double();
    case 'bytes':
      return reader.bytes();
  }
}

/** Go marshals []byte as standard base64. */
function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function zeroScalar(type: ScalarType): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return new Uint8Array(0);
    default:
      return 0;
  }
}

function isZeroScalar(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

/** Adds a key even when it is `__proto__`, which plain assignment would take as the prototype. */
function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** Reads a length prefix and returns where the value ends; throws if past `end`. */
function delimit(reader: Reader, end: number, where: string): number {
  const length = reader.uint32();
  const stop = reader.pos + length;
  if (stop > end) throw unexpectedEnd(where);
  return stop;
}

/** Decodes the message body in [reader.pos, end) to its JSON value. */
export function decodeMessage(reader: Reader, end: number, plan: MessagePlan, context: DecodeContext): unknown {
  if (++context.depth > MAX_DEPTH) throw new ProtobufDecodeError(`proto: messages nested deeper than ${MAX_DEPTH} levels`);
  const values = readFields(reader, end, plan, context);
  context.depth--;
  return toJson(plan, values, context);
}

/** The JSON of a message that is not on the wire at all: Go's zero value of its type. */
function zeroJson(plan: MessagePlan, context: DecodeContext): unknown {
  return toJson(plan, [], context);
}

/** Field values by field index: scalars, JSON of messages, arrays for repeated, objects for maps. */
function readFields(reader: Reader, end: number, plan: MessagePlan, context: DecodeContext): unknown[] {
  const values: unknown[] = [];
  while (reader.pos < end) {
    const key = reader.uint32();
    const number = key >>> 3;
    const wireType = key & 7;
    if (number === 0) throw new ProtobufDecodeError(`proto: ${plan.name}: illegal tag 0 (wire type ${wireType})`);
    const field = plan.byNumber[number];
    if (field === undefined) {
      reader.skipType(wireType);
    } else if (wireType === field.wireType) {
      if (field.map) readMapEntry(reader, end, field, values, context);
      else if (field.repeated) ((values[field.index] ??= []) as unknown[]).push(readValue(reader, end, field, context));
      else values[field.index] = readValue(reader, end, field, context);
    } else if (field.repeated && field.scalar !== undefined && wireType === WireType.lengthDelimited) {
      // Packed repeated scalars, which proto2 readers must accept too.
      const stop = delimit(reader, end, plan.name);
      const list = (values[field.index] ??= []) as unknown[];
      while (reader.pos < stop) list.push(readScalar(reader, field.scalar));
      if (reader.pos !== stop) throw unexpectedEnd(plan.name);
    } else {
      throw new ProtobufDecodeError(`proto: wrong wireType = ${wireType} for field ${field.json || field.number} of ${plan.name}`);
    }
    if (reader.pos > end) throw unexpectedEnd(plan.name);
  }
  return values;
}

function readValue(reader: Reader, end: number, field: FieldPlan, context: DecodeContext): unknown {
  if (field.scalar !== undefined) return readScalar(reader, field.scalar);
  const plan = field.message!;
  const stop = delimit(reader, end, plan.name);
  const value = decodeMessage(reader, stop, plan, context);
  if (reader.pos !== stop) throw unexpectedEnd(plan.name);
  return value;
}

/** One map entry message: key 1, value 2; a missing value is the value type's zero. */
function readMapEntry(reader: Reader, end: number, field: FieldPlan, values: unknown[], context: DecodeContext): void {
  const stop = delimit(reader, end, `map ${field.json}`);
  let key = '';
  let value: unknown;
  const valueTag = (2 << 3) | wireTypeOf(field.scalar);
  while (reader.pos < stop) {
    const tag = reader.uint32();
    if (tag === 0x0a) key = reader.string();
    else if (tag === valueTag) value = readValue(reader, stop, field, context);
    else reader.skipType(tag & 7);
  }
  if (reader.pos !== stop) throw unexpectedEnd(`map ${field.json}`);
  const map = (values[field.index] ??= {}) as Record<string, unknown>;
  if (field.scalar !== undefined) {
    value ??= zeroScalar(field.scalar);
    setKey(map, key, field.scalar === 'bytes' ? base64(value as Uint8Array) : value);
  } else {
    // Go allocates each map value, so even an empty list-typed value is [] rather than null.
    setKey(map, key, value ?? (field.message!.list ? [] : zeroJson(field.message!, context)));
  }
}

function toJson(plan: MessagePlan, values: unknown[], context: DecodeContext): unknown {
  if (plan.special !== undefined) {
    const record: Record<string, unknown> = {};
    for (const field of plan.fields) if (values[field.index] !== undefined) record[field.json] = values[field.index];
    return SPECIAL_CONVERTERS[plan.special].toJson(record, context);
  }
  if (plan.list) return values[0] ?? [];
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const value = values[field.index];
    if (field.inline) {
      Object.assign(out, value ?? zeroJson(field.message!, context));
      continue;
    }
    const json = fieldJson(field, value, context);
    if (json !== OMIT) out[field.json] = json;
  }
  return out;
}

/** A field's JSON value by upstream's Go rules (see the table at the top), or OMIT. */
function fieldJson(field: FieldPlan, value: unknown, context: DecodeContext): unknown {
  const nilable = field.repeated || field.map || field.pointer || field.scalar === 'bytes' || field.message?.list === true;
  if (value === undefined && nilable) return field.omitEmpty ? OMIT : null;
  if (field.scalar === 'bytes' && field.repeated) return (value as Uint8Array[]).map(base64);
  if (field.scalar === 'bytes' && !field.map) {
    const bytes = value as Uint8Array;
    return field.omitEmpty && bytes.length === 0 ? OMIT : base64(bytes);
  }
  if (field.repeated || field.map || field.pointer) return value;
  if (field.scalar !== undefined) {
    const scalar = value ?? zeroScalar(field.scalar);
    return (field.omitEmpty || field.omitZero) && isZeroScalar(scalar) ? OMIT : scalar;
  }
  if (field.message!.list) return field.omitEmpty && (value as unknown[]).length === 0 ? OMIT : value;
  const message = value === undefined ? zeroJson(field.message!, context) : value;
  // omitzero is generated only for the time types, whose zero is null.
  return field.omitZero && message === null ? OMIT : message;
}
