/**
 * A Swagger 2.0 document (as JSON values) encoded as gnostic's `openapi.v2.Document`, the bytes
 * upstream serves for `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`.
 *
 * Upstream compiles its JSON with gnostic and marshals the result, so these rules follow gnostic's
 * compiler and Go's proto3 marshalling:
 * - fields go out in field-number order; a map message's entries and the vendor extensions in the
 *   order of the JSON keys;
 * - proto3 drops zero scalars (an empty string, false, 0), while a message given in the JSON is
 *   written even when empty (`"properties": {}`);
 * - a oneof (e.g. whether a parameter is a body or a query parameter) takes the last alternative
 *   whose required keys, allowed keys and enumerated values the JSON object satisfies;
 * - default, example, enum values and vendor extensions are Any messages holding the value as
 *   YAML text. Ours is go-yaml v2's layout, not the v3 layout gnostic prints; both read back as
 *   the same value, which is all clients do with it.
 * Values of the wrong JSON type for their field are left out (gnostic would refuse the document),
 * and so are negative lengths and counts.
 */
import { encodeYaml } from '../serialization/yaml-encode.js';
import { GrowableWriter } from '../serialization/protobuf/growable-writer.js';
import { MESSAGES, ROOT_MESSAGE, type FieldKind, type MessageSpec } from './openapi-v2-messages.js';

/** gnostic's Any: field 2 holds the YAML text. */
const ANY_YAML = 2;

type Json = Record<string, unknown>;

/** One place in a message, in field-number order: a JSON key, the vendor extensions, or the map entries. */
type Slot =
  | { readonly number: number; readonly key: string; readonly kind: FieldKind }
  | { readonly number: number; readonly extensions: true }
  | { readonly number: number; readonly entries: true };

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Encodes `document`, a Swagger 2.0 object. */
export function encodeOpenApiV2Protobuf(document: Json): Uint8Array {
  const writer = new GrowableWriter();
  writeMessageBody(writer, ROOT_MESSAGE, document);
  return writer.finish();
}

function isExtension(key: string): boolean {
  return key.startsWith('x-');
}

function spec(name: string): MessageSpec {
  const found = MESSAGES[name];
  if (found === undefined) throw new Error(`openapi v2 protobuf: no message ${name}`);
  return found;
}

function slotsFrom(message: MessageSpec): readonly Slot[] {
  const all: Slot[] = [...message.fields].map(([key, [number, kind]]) => ({ number, key, kind }));
  if (message.extensions !== undefined) all.push({ number: message.extensions, extensions: true });
  if (message.entries !== undefined) all.push({ number: message.entries.number, entries: true });
  return all.sort((a, b) => a.number - b.number);
}

/** Each message's slots in field-number order, derived once from the table. */
const SLOTS: ReadonlyMap<string, readonly Slot[]> = new Map(Object.entries(MESSAGES).map(([name, message]) => [name, slotsFrom(message)]));

function writeMessageBody(writer: GrowableWriter, name: string, value: Json): void {
  const message = spec(name);
  if (message.oneOf !== undefined) {
    let chosen: readonly [number, string] | undefined;
    for (const alternative of message.oneOf) if (fits(alternative[1], value)) chosen = alternative;
    if (chosen !== undefined) writeMessage(writer, chosen[0], chosen[1], value);
    return;
  }
  // for...in rather than Object.entries: a document has ~100,000 of these objects.
  for (const slot of SLOTS.get(name)!) {
    if ('key' in slot) {
      if (slot.key in value) writeField(writer, slot.number, slot.kind, value[slot.key]);
    } else if ('extensions' in slot) {
      for (const key in value) if (isExtension(key)) writeNamed(writer, slot.number, key, 'any', value[key]);
    } else {
      const { kind, keys } = message.entries!;
      for (const key in value) {
        if (!message.fields.has(key) && !isExtension(key) && (keys === undefined || keys.test(key))) writeNamed(writer, slot.number, key, kind, value[key]);
      }
    }
  }
}

/** Whether a JSON value is message `name` by gnostic's tests; a oneof's alternatives differ by these. */
function fits(name: string, value: unknown): boolean {
  if (!isObject(value)) return false;
  const message = spec(name);
  if (message.required !== undefined) for (const key of message.required) if (!(key in value)) return false;
  if (message.enums !== undefined) {
    for (const key in message.enums) if (key in value && !message.enums[key]!.includes(value[key] as string)) return false;
  }
  if (message.oneOf !== undefined) return message.oneOf.some(([, alternative]) => fits(alternative, value));
  if (message.openKeys || message.entries !== undefined) return true;
  for (const key in value) if (!message.fields.has(key) && !isExtension(key)) return false;
  return true;
}

function writeMessage(writer: GrowableWriter, number: number, name: string, value: Json): void {
  writer.begin(number);
  writeMessageBody(writer, name, value);
  writer.end();
}

/** A map entry: name in field 1, value in field 2. */
function writeNamed(writer: GrowableWriter, number: number, name: string, kind: FieldKind, value: unknown): void {
  writer.begin(number);
  writeString(writer, 1, name);
  writeField(writer, 2, kind, value);
  writer.end();
}

function writeString(writer: GrowableWriter, number: number, value: unknown): void {
  if (typeof value === 'string' && value !== '') writer.string(number, value);
}

function writeAny(writer: GrowableWriter, number: number, value: unknown): void {
  writer.begin(number);
  writeString(writer, ANY_YAML, encodeYaml(value));
  writer.end();
}

function writeStrings(writer: GrowableWriter, number: number, values: readonly unknown[]): void {
  // Repeated strings keep empty ones: only a scalar field's zero is dropped.
  for (const item of values) if (typeof item === 'string') writer.string(number, item);
}

function writeField(writer: GrowableWriter, number: number, kind: FieldKind, value: unknown): void {
  switch (kind) {
    case 'string':
      return writeString(writer, number, value);
    case 'bool':
      if (value === true) writer.varint(number, 1);
      return;
    case 'double':
      if (typeof value === 'number' && value !== 0) writer.double(number, value);
      return;
    case 'int64':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) writer.varint(number, value);
      return;
    case 'strings':
      if (Array.isArray(value)) writeStrings(writer, number, value);
      return;
    case 'any':
      return writeAny(writer, number, value);
    case 'anys':
      if (Array.isArray(value)) for (const item of value) writeAny(writer, number, item);
      return;
    default:
      return writeMessageField(writer, number, kind, value);
  }
}

/** Message-typed fields, including the four whose JSON form is not an object. */
function writeMessageField(writer: GrowableWriter, number: number, kind: FieldKind, value: unknown): void {
  if (kind.endsWith('[]')) {
    if (Array.isArray(value)) for (const item of value) writeMessageField(writer, number, kind.slice(0, -2), item);
    return;
  }
  switch (kind) {
    case 'TypeItem':
    case 'StringArray': {
      const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
      if (values === undefined) return;
      writer.begin(number);
      writeStrings(writer, 1, values);
      writer.end();
      return;
    }
    case 'ItemsItem': {
      const schemas = isObject(value) ? [value] : Array.isArray(value) ? value.filter(isObject) : undefined;
      if (schemas === undefined) return;
      writer.begin(number);
      for (const schema of schemas) writeMessage(writer, 1, 'Schema', schema);
      writer.end();
      return;
    }
    case 'AdditionalPropertiesItem':
      if (typeof value !== 'boolean' && !isObject(value)) return;
      writer.begin(number);
      // A oneof member is written even when false: it says which member is set.
      if (typeof value === 'boolean') writer.varint(2, value ? 1 : 0);
      else writeMessage(writer, 1, 'Schema', value);
      writer.end();
      return;
    default:
      if (isObject(value)) writeMessage(writer, number, kind, value);
  }
}
