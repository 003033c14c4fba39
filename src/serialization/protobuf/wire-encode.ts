/**
 * JSON model -> Protobuf message, producing the bytes upstream's Go structs produce: fields in
 * ascending number order, every non-pointer field written (its zero when JSON leaves it out),
 * pointers, slices, maps and []byte written only when set, map entries sorted by key. Clients only
 * need the values to survive, but matching upstream byte for byte keeps stored and cached
 * encodings comparable and lets tests check against real clients' bytes.
 */
import type { ScalarType } from './descriptor.js';
import { ProtobufEncodeError } from './errors.js';
import type { FieldPlan, MessagePlan } from './schema.js';
import { wireTypeOf } from './schema.js';
import { SPECIAL_CONVERTERS } from './special-types.js';
import type { SpecialRecord } from './special-types.js';
import type { Writer } from './wire-runtime.js';

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Writes one scalar; null and undefined write the type's zero. */
function writeScalar(writer: Writer, type: ScalarType, value: unknown): void {
  switch (type) {
    case 'string':
      if (value === undefined || value === null) writer.string('');
      else if (typeof value === 'string') writer.string(value);
      else throw new ProtobufEncodeError(`expected a string, got ${describe(value)}`);
      return;
    case 'int32':
      if (value === undefined || value === null) writer.int32(0);
      else if (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) writer.int32(value);
      else throw new ProtobufEncodeError(`expected an int32, got ${describe(value)}`);
      return;
    case 'int64':
      if (value === undefined || value === null) writer.int64(0);
      else if (typeof value === 'number' && Number.isInteger(value)) writer.int64(value);
      else throw new ProtobufEncodeError(`expected an int64, got ${describe(value)}`);
      return;
    case 'bool':
      if (value === undefined || value === null) writer.bool(false);
      else if (typeof value === 'boolean') writer.bool(value);
      else throw new ProtobufEncodeError(`expected a boolean, got ${describe(value)}`);
      return;
    case 'double':
      if (value === undefined || value === null) writer.double(0);
      else if (typeof value === 'number' && Number.isFinite(value)) writer.double(value);
      else throw new ProtobufEncodeError(`expected a number, got ${describe(value)}`);
      return;
    case 'bytes':
      // Base64 text in the JSON model; raw bytes from the special converters.
      if (value === undefined || value === null) writer.bytes(new Uint8Array(0));
      else if (typeof value === 'string') writer.bytes(Buffer.from(value, 'base64'));
      else if (value instanceof Uint8Array) writer.bytes(value);
      else throw new ProtobufEncodeError(`expected base64 text, got ${describe(value)}`);
      return;
  }
}

/** Writes the body of one message (without tag or length) for its JSON value. */
export function encodeMessage(writer: Writer, plan: MessagePlan, value: unknown): void {
  if (plan.special !== undefined) {
    writeRecord(writer, plan, SPECIAL_CONVERTERS[plan.special].fromJson(value));
    return;
  }
  if (plan.list) {
    writeField(writer, plan.fields[0]!, value);
    return;
  }
  if (value !== undefined && value !== null && !isObject(value)) {
    throw new ProtobufEncodeError(`expected an object, got ${describe(value)}`);
  }
  const object = value ?? EMPTY;
  for (const field of plan.encodeOrder) {
    try {
      writeField(writer, field, field.inline ? object : object[field.json]);
    } catch (error) {
      throw error instanceof ProtobufEncodeError && !field.inline ? error.within(field.json) : error;
    }
  }
}

/** A special message's fields: exactly those its converter returned. */
function writeRecord(writer: Writer, plan: MessagePlan, record: SpecialRecord): void {
  for (const field of plan.encodeOrder) {
    const value = record[field.json];
    if (value === undefined) continue;
    if (field.repeated) for (const element of value as unknown[]) writeOne(writer, field, element);
    else writeOne(writer, field, value);
  }
}

/** Writes one field of a message (all its occurrences) for its JSON value; nothing when Go writes nothing. */
export function writeField(writer: Writer, field: FieldPlan, value: unknown): void {
  if (field.map) {
    if (value === undefined || value === null) return;
    if (!isObject(value)) throw new ProtobufEncodeError(`expected an object, got ${describe(value)}`);
    for (const key of Object.keys(value).sort()) {
      try {
        writeMapEntry(writer, field, key, value[key]);
      } catch (error) {
        throw error instanceof ProtobufEncodeError ? error.within(key) : error;
      }
    }
  } else if (field.repeated) {
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) throw new ProtobufEncodeError(`expected an array, got ${describe(value)}`);
    value.forEach((element, i) => {
      try {
        writeOne(writer, field, element);
      } catch (error) {
        throw error instanceof ProtobufEncodeError ? error.within(String(i)) : error;
      }
    });
  } else {
    const nilable = field.pointer || field.scalar === 'bytes' || field.message?.list === true;
    if (nilable && (value === undefined || value === null)) return;
    writeOne(writer, field, value);
  }
}

/** Tag and value of one field occurrence. */
function writeOne(writer: Writer, field: FieldPlan, value: unknown): void {
  writer.uint32(field.tag);
  if (field.scalar !== undefined) {
    writeScalar(writer, field.scalar, value);
  } else {
    writer.fork();
    encodeMessage(writer, field.message!, value);
    writer.ldelim();
  }
}

function writeMapEntry(writer: Writer, field: FieldPlan, key: string, value: unknown): void {
  writer.uint32(field.tag).fork();
  writer.uint32(0x0a).string(key);
  if (field.scalar !== undefined) {
    writer.uint32((2 << 3) | wireTypeOf(field.scalar));
    writeScalar(writer, field.scalar, value);
  } else {
    writer.uint32(0x12).fork();
    encodeMessage(writer, field.message!, value);
    writer.ldelim();
  }
  writer.ldelim();
}
